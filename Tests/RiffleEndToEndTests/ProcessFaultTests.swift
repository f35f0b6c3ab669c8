import Foundation
import Testing

/// How Riffle ends when it is not its window that closes it, run as a person's shell or session
/// would end it: a quit signal closes the window and exits with 128 + the signal after printing
/// the statistics (no core, nothing on stderr); the X server going away ends it with one line on
/// stderr and status 1, never a crash or a hang.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ProcessFaultTests {
    /// A `riffle --stats` on `server`'s display, its window up.
    struct RunningRiffle {
        let process = Process()
        let stdout = Pipe(), stderr = Pipe()

        /// The window's id, as xdotool names it.
        private(set) var window = ""

        init(on server: VirtualXServer, environment extra: [String: String] = [:]) throws {
            let xdotool = try ExternalCommand("xdotool", package: "xdotool")
            var env = ProcessInfo.processInfo.environment.merging(extra) { $1 }
            env["DISPLAY"] = server.display
            env["XDG_CACHE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-\(UUID().uuidString)").path
            process.executableURL = URL(fileURLWithPath: RealWindowTests.riffle)
            process.arguments = ["--stats", "--size", "320x200", RealWindowTests.photos + "/2 friends.jpg"]
            process.environment = env
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
            var window = ""
            let mapped = try eventually(within: 20) {
                window = try xdotool.run(["search", "--classname", "riffle"], environment: env).stdout
                    .split(separator: "\n").first.map(String.init) ?? ""
                return !window.isEmpty
            }
            if !mapped { throw EndToEndError("the window never appeared") }
            self.window = window
        }

        /// Waits up to `seconds` for the process to end; false (and killed) when it hangs.
        func ended(within seconds: Double) -> Bool {
            let ended = eventually(within: seconds) { !process.isRunning }
            if !ended {
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            return ended
        }

        func output() -> (stdout: String, stderr: String) {
            (String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
             String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aQuitSignalClosesTheWindowAndExits(signal: Int32) throws {
        let server = try VirtualXServer(sharedMemory: true)
        let riffle = try RunningRiffle(on: server)
        kill(riffle.process.processIdentifier, signal)
        #expect(riffle.ended(within: 10), "still running 10 s after signal \(signal)")
        let (stdout, stderr) = riffle.output()
        #expect(riffle.process.terminationReason == .exit, "killed by the signal instead of exiting")
        #expect(riffle.process.terminationStatus == 128 + signal)
        #expect(stdout.contains("frames:"), "the statistics were not printed: \(stdout)")
        #expect(stderr.isEmpty, "\(stderr)")
    }

    @Test func aDyingXServerEndsRiffleWithOneLine() throws {
        let server = try VirtualXServer(sharedMemory: true)
        let riffle = try RunningRiffle(on: server)
        let display = server.display
        server.killNow()
        #expect(riffle.ended(within: 10), "still running 10 s after the X server died")
        let (_, stderr) = riffle.output()
        #expect(riffle.process.terminationReason == .exit, "a crash instead of an exit")
        #expect(riffle.process.terminationStatus == 1)
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(stderr)")
        #expect(lines.first?.hasPrefix("riffle: lost the connection to X display \(display)") == true, "\(stderr)")
    }
}
