import CRiffleX11TestClients
import Foundation
import Testing

/// Which way a live window's frames reach the server, as `--stats` reports it, and the
/// input-to-photon latency measured where the server says when frames reach the screen
/// (Present): real key presses (XTest through xdotool) on each path under Xvfb, whose made-up
/// vblanks Present's path recognises.
@Suite(.timeLimit(.minutes(2))) struct PresentationTests {
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
            // Xvfb makes its vblanks up (no scanout): its completions say so, and the frames are
            // copied at once.
            #expect(presentation.contains("copied at once: the server's vblanks are made up"), "\(presentation)")
            // Each key slides a page: the first frame of each slide answers it.
            #expect((frames ?? 0) >= 3, "\(latency)")
            #expect(!latency.contains("n/a"), "\(latency)")
        } else {
            #expect(frames == 0, "no latency without the server's word on when frames are shown: \(latency)")
        }
    }

    /// Without Present the loop cannot see vblanks: it paces itself at the monitor's rate, the
    /// RandR mode of the output the window is on. Here a second client holds a 144 Hz mode on
    /// the server's output; on Xvfb's own mode (no timings) the rate is unknown and the loop
    /// keeps to 60 Hz. `--stats` says which.
    @Test func withoutPresentTheLoopPacesAtTheMonitorsRandRRate() throws {
        for hz in [144.0, nil] {
            let server = try VirtualXServer(sharedMemory: true)
            let override = hz.flatMap { rfx_test_set_refresh_rate(server.display, $0) }
            defer { rfx_test_refresh_override_close(override) }
            if hz != nil { try #require(override != nil, "RandR refused the test's 144 Hz mode") }
            let app = try ProcessFaultTests.riffle(on: server, environment: ["RIFFLE_PRESENT": "0"])
            usleep(500_000)
            kill(app.riffle.processIdentifier, SIGTERM)
            #expect(app.ended(within: 10))
            let (stdout, _) = app.output()
            let presentation = stdout.split(separator: "\n").first { $0.hasPrefix("presentation: ") } ?? ""
            let expected = hz == nil ? "at 60 Hz, the monitor's rate unknown" : "at 144 Hz, the monitor's RandR mode"
            #expect(presentation.hasPrefix("presentation: XShmPutImage") && presentation.contains(expected), "\(stdout)")
        }
    }
}
