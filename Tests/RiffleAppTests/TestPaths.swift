import Foundation

/// Paths of the shared test material, found from this file's location (never the working
/// directory): `Tests/Photos`, `Tests/Scripts` and this target's goldens.
enum TestPaths {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let photos = testsFolder.appendingPathComponent("Photos").path
    static let scripts = testsFolder.appendingPathComponent("Scripts")
    static let goldens = testsFolder.appendingPathComponent("RiffleAppTests/Goldens")
    static let failures = testsFolder.appendingPathComponent("RiffleAppTests/Failures")

    static func script(_ name: String) -> URL { scripts.appendingPathComponent(name + ".replay") }
}
