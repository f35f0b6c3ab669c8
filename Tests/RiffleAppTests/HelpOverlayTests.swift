@testable import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleRaster
import Testing

/// The help overlay in small windows: its text stays inside the window's sides and under the
/// bar, and scrolls under the wheel to its last line.
@Suite struct HelpOverlayTests {
    /// True when some pixel of `frame` in `xs` × `ys` is bright: help text (white at 0.8 and
    /// more), never the photo or the bar under the 0.8 shade (at most 0.2 of white).
    static func hasText(_ frame: PixelBuffer, xs: Range<Int>, ys: Range<Int>) -> Bool {
        ys.contains { y in
            xs.contains { x in
                let p = frame[x, y]
                return max(p >> 16 & 0xFF, p >> 8 & 0xFF, p & 0xFF) > 128
            }
        }
    }

    @Test(arguments: [
        (400, 300, GoldenImage.named(golden: "help-overlay/400x300-top"), GoldenImage.named(golden: "help-overlay/400x300-end")),
        (320, 240, GoldenImage.named(golden: "help-overlay/320x240-top"), GoldenImage.named(golden: "help-overlay/320x240-end")),
    ])
    func theHelpFitsAndScrolls(width: Int, height: Int, topGolden: String, endGolden: String) throws {
        var harness = ViewerHarness(size: PixelSize(width: width, height: height))
        harness.press(.function(1))
        harness.run(0.5)
        let layout = harness.viewer.renderState.chrome.layout
        #expect(harness.viewer.renderState.chrome.panel == .help)
        #expect(layout.scrollLimit(of: .help) > 0, "the help fits without scrolling: the test shows nothing")
        let bar = Int(layout.bar.height), margin = Int(layout.pixels(ChromeLayout.helpMarginPoints))
        func expectInside(_ frame: PixelBuffer, _ when: String) {
            #expect(!Self.hasText(frame, xs: 0..<width, ys: 0..<bar), "help text over the bar \(when)")
            #expect(!Self.hasText(frame, xs: 0..<(margin - 1), ys: bar..<height), "help text cut at the left side \(when)")
            // The scroll indicator lies in the right margin's outer half.
            #expect(!Self.hasText(frame, xs: (width - margin + 1)..<(width - margin / 2), ys: bar..<height), "help text cut at the right side \(when)")
        }
        let top = try harness.settledCapture()
        expectInside(top, "at the top")
        try GoldenImage.check(top, golden: topGolden)
        for _ in 0..<60 {
            harness.viewer.handle(.scroll(delta: Point(x: 0, y: -1), position: Point(x: 100, y: 100), modifiers: [], precise: false, time: harness.now), now: harness.now)
            harness.run(0.02)
        }
        let state = harness.viewer.renderState.chrome
        #expect(state.panel == .help)
        #expect(state.panelScroll == layout.scrollLimit(of: .help), "the wheel does not reach the help's last line")
        let end = try harness.settledCapture()
        expectInside(end, "at the end")
        try GoldenImage.check(end, golden: endGolden)
    }
}

extension ViewerHarness {
    /// The frame once every decode asked for has finished and been drawn (as a replay's
    /// snapshot waits), so a golden never depends on the machine's speed.
    mutating func settledCapture() throws -> PixelBuffer {
        for _ in 0..<2 {
            viewer.settleDecodes()
            run(0.1)
        }
        return try display.capture()
    }
}
