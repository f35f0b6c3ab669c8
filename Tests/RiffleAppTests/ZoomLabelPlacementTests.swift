@testable import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleRaster
import Testing

/// The zoom label ("200 %") while the bars and the navigator strip show: above the strip, not
/// under it.
@Suite struct ZoomLabelPlacementTests {
    /// The box around every pixel that differs between `a` and `b`; nil when none does.
    static func differingBox(_ a: PixelBuffer, _ b: PixelBuffer) -> (minY: Int, maxY: Int, minX: Int, maxX: Int)? {
        var box: (minY: Int, maxY: Int, minX: Int, maxX: Int)?
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] {
                box = (min(box?.minY ?? y, y), max(box?.maxY ?? y, y), min(box?.minX ?? x, x), max(box?.maxX ?? x, x))
            }
        }
        return box
    }

    @Test func theZoomLabelShowsAboveTheStrip() throws {
        var harness = ViewerHarness(size: PixelSize(width: 320, height: 200))
        // A click pins the bars (and the strip) over white.
        let centre = Point(x: 160, y: 100)
        harness.viewer.handle(.pointerDown(position: centre, button: .left, modifiers: [], time: harness.now), now: harness.now)
        harness.viewer.handle(.pointerUp(position: centre, button: .left, modifiers: [], time: harness.now + 0.05), now: harness.now + 0.05)
        harness.run(0.6)
        #expect(harness.viewer.renderState.chrome.opacity == 1)
        // The photo decoded first: "+" steps from the fit of its real size, not its preview's.
        _ = try harness.settledCapture()
        harness.press(.character("+"))
        // Until the zoom rests; the label holds for `ZoomLabel.hold` after that.
        var last = harness.viewer.renderState.pages.first { $0.index == 0 }?.transform
        while true {
            harness.run(0.1)
            let now = harness.viewer.renderState.pages.first { $0.index == 0 }?.transform
            if now == last { break }
            last = now
        }
        #expect(harness.viewer.renderState.zoomLabel.opacity == 1)
        let withLabel = try harness.settledCapture()
        try GoldenImage.check(withLabel, golden: "zoom-label/above-the-strip")
        harness.run(ZoomLabel.hold + ZoomLabel.fadeOut + 0.2)
        #expect(harness.viewer.renderState.zoomLabel.opacity == 0)
        let without = try harness.settledCapture()
        // What the label drew: wholly above the strip's band, which shows.
        let strip = harness.viewer.renderState.chrome.layout.stripBand
        let box = try #require(Self.differingBox(withLabel, without), "no label drawn")
        #expect(Double(box.maxY) < strip.minY, "the label reaches row \(box.maxY), the strip starts at \(strip.minY)")
        #expect(box.minY > 100, "the label left the window's bottom")
    }
}
