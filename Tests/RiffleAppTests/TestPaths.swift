import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleTestSupport

/// Paths of the shared test material, found from this file's location (never the working
/// directory): `Tests/Photos`, `Tests/Scripts` and this target's goldens.
enum TestPaths {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    /// `Tests/Photos`, its dates pinned (`PinnedPhotoDates`) at the first use of this path by any
    /// test, so that no test can show a photo's checkout time or the machine's zone, whichever
    /// suite happens to run first.
    static let photos: String = {
        let path = testsFolder.appendingPathComponent("Photos").path
        do { try PinnedPhotoDates.pin(photos: path) } catch { fatalError("cannot pin the test photos' dates: \(error)") }
        return path
    }()
    static let scripts = testsFolder.appendingPathComponent("Scripts")
    static let goldens = testsFolder.appendingPathComponent("RiffleAppTests/Goldens")
    static let failures = testsFolder.appendingPathComponent("Failures")
    /// This test target's sources.
    static let appTests = testsFolder.appendingPathComponent("RiffleAppTests")

    static func script(_ name: String) -> URL { scripts.appendingPathComponent(name + ".replay") }

    /// The names of every script in `Tests/Scripts`, sorted; throws when the folder cannot be
    /// read (never an empty list in its place: a table of no cases passes).
    static func allScripts() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scripts.path)
            .filter { $0.hasSuffix(".replay") }.map { String($0.dropLast(".replay".count)) }.sorted()
    }
}

extension Photo {
    /// The photos at `paths`, in that order, as a library first lists them: identities from 0, so
    /// photo i of a library no folder change has touched is `PhotoID(i)`.
    static func numbered(_ paths: [String]) -> [Photo] {
        paths.enumerated().map { Photo(id: PhotoID($0.offset), path: $0.element) }
    }
}
