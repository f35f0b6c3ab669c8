import Foundation

/// A program the tests compare with or make fixtures through (ExifTool, ImageMagick), which
/// `make test` installs (the Makefile's TEST_PACKAGES).
public enum ExternalTool {
    /// Runs `tool` (found on PATH) with `arguments` and returns its standard output; throws with
    /// its standard error when it cannot run or fails.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String]) throws -> Data {
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

    /// Why a tool failed: its command line and what it said.
    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}
