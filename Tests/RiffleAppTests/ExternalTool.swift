import Foundation

/// A program the tests compare with or make fixtures through (ExifTool, ImageMagick), which
/// `make test` installs (the Makefile's TEST_PACKAGES).
enum ExternalTool {
    /// Runs `tool` (found on PATH) with `arguments` and returns its standard output; throws with
    /// its standard error when it cannot run or fails.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(message: "\(tool) \(arguments.joined(separator: " ")) failed: \(String(decoding: complaint, as: UTF8.self))")
        }
        return data
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
