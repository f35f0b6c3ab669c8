import Foundation
import Testing

/// How Riffle ends when it is not its window that closes it, run as a person's shell or session
/// would end it: a quit signal closes the window and exits with 128 + the signal after printing
/// the statistics (no core, nothing on stderr); the X server going away ends it with one line on
/// stderr and status 1, never a crash or a hang.
@Suite(.timeLimit(.minutes(2))) struct ProcessFaultTests {
    static func riffle(on server: VirtualXServer, environment: [String: String] = [:]) throws -> RunningWindow {
        try RunningWindow(paths: [RealWindowTests.photos + "/2 friends.jpg"], server: server, options: ["--stats"], environment: environment)
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aQuitSignalClosesTheWindowAndExits(signal: Int32) throws {
        let server = try VirtualXServer(sharedMemory: true)
        let app = try Self.riffle(on: server)
        kill(app.riffle.processIdentifier, signal)
        #expect(app.ended(within: 10), "still running 10 s after signal \(signal)")
        let (stdout, stderr) = app.output()
        #expect(app.riffle.terminationReason == .exit, "killed by the signal instead of exiting")
        #expect(app.riffle.terminationStatus == 128 + signal)
        #expect(stdout.contains("frames:"), "the statistics were not printed: \(stdout)")
        #expect(stderr.isEmpty, "\(stderr)")
    }

    @Test func aDyingXServerEndsRiffleWithOneLine() throws {
        let server = try VirtualXServer(sharedMemory: true)
        let app = try Self.riffle(on: server)
        let display = server.display
        server.killNow()
        #expect(app.ended(within: 10), "still running 10 s after the X server died")
        let (_, stderr) = app.output()
        #expect(app.riffle.terminationReason == .exit, "a crash instead of an exit")
        #expect(app.riffle.terminationStatus == 1)
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(stderr)")
        #expect(lines.first?.hasPrefix("riffle: lost the connection to X display \(display)") == true, "\(stderr)")
    }
}
