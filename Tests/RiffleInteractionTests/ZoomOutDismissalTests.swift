import RealModule
import RiffleGeometry
import RiffleInteraction
import Testing

/// A 2000 × 1000 photo in a 1000 × 800 window: fit = min(1000/2000, 800/1000, 1) = 0.5. The photo
/// closes when the gesture ends below 0.7 × 0.5 = 0.35, unless it began zoomed in or went above
/// 0.5 · (1 + 1/15) = 0.5333….
@Suite struct ZoomOutDismissalTests {
    static let bounds = ZoomBounds(content: Size(width: 2000, height: 1000), viewport: Size(width: 1000, height: 800))

    @Test(arguments: [
        // end scale, dismisses
        (0.34, true), (0.26, true),
        (0.35, false), // exactly 0.7 × fit: not below it
        (0.36, false), (0.45, false), (0.5, false), // near fit: bounces back
        (0.9, false),
    ])
    func aPinchFromFitClosesBelowSevenTenthsOfFit(end: Double, dismisses: Bool) {
        var gesture = ZoomOutDismissal(bounds: Self.bounds, startScale: 0.5)
        gesture.zoomed(to: 0.4)
        #expect(gesture.dismisses(endingAt: end) == dismisses)
    }

    @Test(arguments: [
        // the largest scale on the way, dismisses at 0.3
        (0.53, true), // within 1/15 of fit: a wobble
        (0.54, false), // above it: a zoom in, then out
        (2.0, false),
    ])
    func aGestureThatZoomedInFirstNeverCloses(peak: Double, dismisses: Bool) {
        var gesture = ZoomOutDismissal(bounds: Self.bounds, startScale: 0.5)
        gesture.zoomed(to: peak)
        gesture.zoomed(to: 0.3)
        #expect(gesture.canDismiss == dismisses)
        #expect(gesture.dismisses(endingAt: 0.3) == dismisses)
    }

    @Test(arguments: [
        // scale at the start, dismisses at 0.3
        (0.5, true), (0.42, true), // at fit, or below it (caught mid-bounce)
        (0.5001, false), (1.0, false), // zoomed in
    ])
    func onlyAGestureBegunAtFitCloses(start: Double, dismisses: Bool) {
        let gesture = ZoomOutDismissal(bounds: Self.bounds, startScale: start)
        #expect(gesture.dismisses(endingAt: 0.3) == dismisses)
    }

    /// Through the zoom model: below fit the shown scale is fit·(raw/fit)^0.3 (Loupe's resistance),
    /// so a pinch to a quarter shows 0.5·0.25^0.3 = 0.330 (closes) and one to a half shows
    /// 0.5·0.5^0.3 = 0.406 (bounces back).
    @Test(arguments: [(0.25, true), (0.5, false), (0.3, true), (0.35, false)])
    func decidedOnTheScaleShown(factor: Double, dismisses: Bool) {
        var zoom = ZoomScrollModel(bounds: Self.bounds)
        var gesture = ZoomOutDismissal(bounds: Self.bounds, startScale: zoom.transform(at: 0).scale)
        let anchor = Point(x: 500, y: 400)
        for k in 1...10 {
            zoom.zoom(by: Double.pow(factor, 0.1), anchor: anchor, at: Double(k) / 100)
            gesture.zoomed(to: zoom.transform(at: Double(k) / 100).scale)
        }
        #expect(gesture.dismisses(endingAt: zoom.transform(at: 0.1).scale) == dismisses)
    }
}
