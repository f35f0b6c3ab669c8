import Foundation
import Testing

/// The `riffle` binary built beside this test binary (`swift build --build-tests` builds both),
/// run as a process of its own: for tests that read what only a process of its own shows, its
/// peak memory (VmHWM, not the test process's) or a trace of its system calls.
enum RiffleBinary {
    /// What a run printed.
    struct Run {
        var output: String
        var errors: String

        /// The peak resident size in MiB that `--stats` printed ("peak RSS: 29.4 MiB").
        func peakResidentMiB() throws -> Double {
            try #require(
                output.split(separator: "\n").first { $0.hasPrefix("peak RSS: ") }
                    .flatMap { Double($0.dropFirst("peak RSS: ".count).dropLast(" MiB".count)) },
                "no peak RSS in --stats: \(output)")
        }
    }

    /// The binary's path; fails the test when it was not built.
    static func path() throws -> String {
        let path = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("riffle").path
        try #require(FileManager.default.isExecutableFile(atPath: path), "build riffle first (swift build --build-tests)")
        return path
    }

    /// Runs riffle with `arguments` and expects exit status 0. `wrapper` is a command line
    /// riffle runs under (strace and its options); `environment` replaces this process's and
    /// `directory` is the working directory, when given. Standard error goes to a file while it
    /// runs, so that neither stream can fill and stall the child while the other is read.
    static func run(
        _ arguments: [String], wrapper: [String] = [], environment: [String: String]? = nil, directory: String? = nil
    ) throws -> Run {
        let command = wrapper + [try path()] + arguments
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-stderr-\(UUID().uuidString)")
        try Data().write(to: errorsFile)
        defer { try? FileManager.default.removeItem(at: errorsFile) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorsFile)
        try process.run()
        let outputText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let errorsText = (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "riffle exited with status \(process.terminationStatus): \(errorsText)")
        return Run(output: outputText, errors: errorsText)
    }
}
