import RiffleGeometry
@testable import RiffleInteraction
import Testing

/// The scrubber's mapping, worked by hand for a window 800 × 600 with bars of 34 and 44: the
/// track from y₀ = 34 to y₁ = 556 (522 high), the thumb 44 high, so 478 of travel; a pointer at
/// y asks for f = clamp((y − 34 − 22) / 478, 0, 1), and the thumb for f lies at 34 + f·478.
@Suite struct TimelineScrubberTests {
    static let scrubber = TimelineScrubber(viewport: Size(width: 800, height: 600), scale: 1, insets: GridInsets(top: 34, bottom: 44))

    @Test(arguments: [(56.0, 0.0), (0.0, 0.0), (295.0, 0.5), (534.0, 1.0), (600.0, 1.0), (151.6, 0.2)])
    func thePointersHeightIsTheScrollsFraction(y: Double, fraction: Double) {
        #expect(abs(Self.scrubber.fraction(atY: y) - fraction) < 1e-9)
    }

    @Test func theThumbFollowsTheFractionUnderThePointer() {
        #expect(Self.scrubber.strip == Rect(x: 772, y: 34, width: 28, height: 522))
        #expect(Self.scrubber.thumb(atFraction: 0, dragged: false) == Rect(x: 792, y: 34, width: 5, height: 44))
        #expect(Self.scrubber.thumb(atFraction: 1, dragged: true) == Rect(x: 788, y: 512, width: 9, height: 44))
        // Dragged, the thumb's middle stays under the pointer anywhere inside the travel.
        for y in stride(from: 60.0, through: 530, by: 47) {
            let thumb = Self.scrubber.thumb(atFraction: Self.scrubber.fraction(atY: y), dragged: true)
            #expect(abs(thumb.center.y - y) <= 0.5)
        }
    }

    @Test func onlyALongScrollHasOne() {
        #expect(!Self.scrubber.isShown(contentLength: 1799))
        #expect(Self.scrubber.isShown(contentLength: 1800))
    }

    /// The grid put at a fraction of its range, at once: 100 items in 5 columns of 198 px
    /// (rows of 200, 20 rows: 3,998 px of content in a 600 px window, 3,398 of range).
    @Test func theGridGoesToTheFractionAtOnce() {
        var grid = GridInteraction(itemCount: 100, viewport: Size(width: 998, height: 600))
        grid.scroll(toFraction: 0.25)
        #expect(abs(grid.scrollPosition - 0.25 * (grid.layout.contentHeight - 600)) < 1e-9)
        #expect(abs(grid.scrollFraction - 0.25) < 1e-9)
        #expect(!grid.isAnimating)
    }
}
