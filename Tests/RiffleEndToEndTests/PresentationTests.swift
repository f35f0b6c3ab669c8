import Foundation
import Testing

/// Which way a live window's frames reach the server, as `--stats` reports it, and the
/// input-to-photon latency measured where the server says when frames reach the screen
/// (Present): real key presses (XTest through xdotool) on each path under Xvfb.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PresentationTests {
    @Test(arguments: RealWindowTests.PresentationPath.allCases)
    func statsNameThePathAndPresentMeasuresLatency(path: RealWindowTests.PresentationPath) throws {
        let xdotool = try ExternalCommand("xdotool", package: "xdotool")
        let server = try VirtualXServer(sharedMemory: path != .image)
        let app = try ProcessFaultTests.riffle(on: server, environment: path == .sharedImage ? ["RIFFLE_PRESENT": "0"] : [:])
        // Real key events (XTest, stamped by the server), the pointer over the window so that
        // the keyboard's focus, following it on a server without a window manager, is there.
        _ = try xdotool.run(
            ["mousemove", "100", "100", "sleep", "0.3", "key", "Right", "sleep", "0.6", "key", "Right", "sleep", "0.6", "key", "Left", "sleep", "0.6"],
            environment: ["DISPLAY": server.display])
        kill(app.riffle.processIdentifier, SIGTERM)
        #expect(app.ended(within: 10))
        let (stdout, _) = app.output()
        let lines = stdout.split(separator: "\n").map(String.init)
        let presentation = lines.first { $0.hasPrefix("presentation: ") } ?? ""
        let expected = switch path {
        case .present: "presentation: Present"
        case .sharedImage: "presentation: XShmPutImage"
        case .image: "presentation: XPutImage"
        }
        #expect(presentation.hasPrefix(expected), "\(stdout)")
        let latency = lines.first { $0.hasPrefix("input to photon") } ?? ""
        // "input to photon (...): N frames, p50 X ms, p99 Y ms"
        let frames = latency.split(separator: ":").last.flatMap { $0.split(separator: " ").first }.flatMap { Int($0) }
        if path == .present {
            // Each key slides a page: the first frame of each slide answers it.
            #expect((frames ?? 0) >= 3, "\(latency)")
            #expect(!latency.contains("n/a"), "\(latency)")
        } else {
            #expect(frames == 0, "no latency without the server's word on when frames are shown: \(latency)")
        }
    }
}
