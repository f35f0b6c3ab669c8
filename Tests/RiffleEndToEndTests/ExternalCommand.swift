import Foundation

/// A program the end-to-end tests run (xprop, xdotool, make, desktop-file-validate ...): found on
/// PATH, run to its end with its output captured, killed after a time limit so a hung tool fails
/// the test instead of stalling the run.
struct ExternalCommand {
    /// How a run ended.
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        /// The output of both streams, for a failure message.
        var output: String { stdout + stderr }
    }

    let path: String

    /// The program named `name` on PATH; throws naming the Debian `package` that provides it.
    init(_ name: String, package: String) throws {
        guard let path = VirtualXServer.findExecutable(name) else {
            throw EndToEndError("\(name) is not installed (Debian package \(package); `make test` installs it)")
        }
        self.path = path
    }

    /// The program at `path`.
    init(path: String) { self.path = path }

    /// Runs the program with `arguments` in `environment` (this process's when nil) and
    /// `directory`, killed after `timeLimit` seconds.
    func run(_ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
             timeLimit: Int = 60) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeLimit), execute: watchdog)
        // Both pipes are drained at once: a child blocked on a full stdout never closes stderr.
        nonisolated(unsafe) var stdout = Data()
        let reader = DispatchWorkItem { stdout = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(execute: reader)
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        reader.wait()
        watchdog.cancel()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// Polls `condition` every 50 ms until it holds or `seconds` pass; returns whether it held.
func eventually(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
        if try condition() { return true }
        usleep(50_000)
    } while Date() < deadline
    return false
}
