import RealModule
import RiffleGeometry
import RiffleInteraction
import Testing

/// A 2000×1000 photo in a 1000×800 page: fit = min(1000/2000, 800/1000, 1) = 0.5 (shown
/// 1000×500, 150 px above and below), maximum = max(2.5 · 0.5, 8, 0.5) = 8. At scale s the offset
/// ranges over [1000 − 2000s, 0] × [800 − 1000s, 0], or is centred on an axis the photo does not
/// fill. The window centre is (500, 400).
@Suite struct ZoomScrollModelTests {
    static let bounds = ZoomBounds(content: Size(width: 2000, height: 1000), viewport: Size(width: 1000, height: 800))
    static let fit = ScaleTranslate(scale: 0.5, offset: Point(x: 0, y: 150))
    static let centre = Point(x: 500, y: 400)
    /// Image point (1000, 500), under the centre at fit, kept there at scale 1.
    static let zoomedAtCentre = ScaleTranslate(scale: 1, offset: Point(x: -500, y: -100))

    /// k = −1000 · ln 0.99 per second: UIScrollView's `.fast` deceleration, 0.99 of the velocity
    /// kept per millisecond. A fling from x0 at v0 is at x0 + v0·(1 − e^(−k·t))/k.
    static let decay = -1000 * Double.log(0.99)

    static func coasting(from x0: Double, velocity v0: Double, after t: Double) -> Double {
        x0 + v0 * -Double.expMinusOne(-decay * t) / decay
    }

    /// b(x) = x·c·d/(|x|·c + d), c = 0.55, d = the 800 px viewport height.
    static func rubberBand(_ excess: Double) -> Double { excess * 0.55 * 800 / (abs(excess) * 0.55 + 800) }

    static func isClose(_ a: ScaleTranslate, _ b: ScaleTranslate, tolerance: Double = 1e-9) -> Bool {
        abs(a.scale - b.scale) <= tolerance && (a.offset - b.offset).length <= tolerance
    }

    /// Zoomed to scale 1 about the centre at t = 0, still tracking.
    static func zoomed() -> ZoomScrollModel {
        var model = ZoomScrollModel(bounds: bounds)
        model.zoom(by: 2, anchor: centre, at: 0)
        return model
    }

    /// Steps at 60 Hz from `t` until the model rests; returns that time.
    static func settle(_ model: inout ZoomScrollModel, from t: Double) -> Double {
        var now = t
        while model.isAnimating, now < t + 5 {
            now += 1.0 / 60
            model.settle(at: now)
        }
        return now
    }

    @Test func restsAtFit() {
        let model = ZoomScrollModel(bounds: Self.bounds)
        #expect(model.transform(at: 3) == Self.fit)
        #expect(model.isRestingAtFit && !model.isAnimating && !model.isTracking)
    }

    /// The image point under the anchor at fit is (anchor − (0, 150)) / 0.5; at the new scale s
    /// the offset anchor − point·s, moved into bounds.
    @Test(arguments: [
        // factor, anchor, transform
        (2.0, Point(x: 500, y: 400), zoomedAtCentre),
        // Point (500, 100): offset (−250, 100), y clamped to 0.
        (2, Point(x: 250, y: 200), ScaleTranslate(scale: 1, offset: Point(x: -250, y: 0))),
        // Point (1800, 1100) at 2: (900 − 3600, 700 − 2200), y clamped to 800 − 2000.
        (4, Point(x: 900, y: 700), ScaleTranslate(scale: 2, offset: Point(x: -2700, y: -1200))),
        // 1500×750 at 0.75: x 500 − 750; 50 px short vertically, so centred at 25.
        (1.5, Point(x: 500, y: 400), ScaleTranslate(scale: 0.75, offset: Point(x: -250, y: 25))),
    ] as [(Double, Point, ScaleTranslate)])
    func zoomKeepsTheAnchorAsFarAsBoundsAllow(factor: Double, anchor: Point, transform: ScaleTranslate) {
        var model = ZoomScrollModel(bounds: Self.bounds)
        model.zoom(by: factor, anchor: anchor, at: 0)
        #expect(model.isTracking)
        #expect(Self.isClose(model.transform(at: 0), transform), "\(model.transform(at: 0))")
    }

    /// Past the limits the shown scale resists: max·(z/max)^0.3 up to 2·max, min·(z/min)^0.3 down
    /// to min/2 (Loupe's exponent).
    @Test(arguments: [
        // factor from fit (raw scale 0.5·factor), shown scale
        (32.0, 8 * Double.pow(2, 0.3)), (10_000, 16), (0.25, 0.5 * Double.pow(0.25, 0.3)), (0.01, 0.25),
    ])
    func pastTheLimitsTheScaleResists(factor: Double, scale: Double) {
        var model = ZoomScrollModel(bounds: Self.bounds)
        model.zoom(by: factor, anchor: Self.centre, at: 0)
        #expect(abs(model.transform(at: 0).scale - scale) < 1e-12)
    }

    /// Released at 8·2^0.3 about the centre the zoom springs back to 8 with image point
    /// (1000, 500) held at the centre: offset (500 − 8000, 400 − 4000).
    @Test func aReleasePastTheMaximumSpringsBackAboutTheAnchor() {
        var model = ZoomScrollModel(bounds: Self.bounds)
        model.zoom(by: 32, anchor: Self.centre, at: 0)
        model.release(velocity: Point(x: 3000, y: 0), at: 1)
        let target = ScaleTranslate(scale: 8, offset: Point(x: -7500, y: -3600))
        #expect(model.isAnimating && Self.isClose(model.restingTransform(at: 1), target))
        for k in 0...30 {
            let shown = model.transform(at: 1 + Double(k) / 100)
            #expect((shown.apply(Point(x: 1000, y: 500)) - Self.centre).length < 1e-9)
        }
        let rested = Self.settle(&model, from: 1)
        #expect(Self.isClose(model.transform(at: rested), target) && !model.isAnimating)
    }

    @Test func aReleaseBelowFitSpringsBackToFit() {
        var model = ZoomScrollModel(bounds: Self.bounds)
        model.zoom(by: 0.25, anchor: Point(x: 100, y: 100), at: 0)
        model.release(velocity: .zero, at: 1)
        let rested = Self.settle(&model, from: 1)
        #expect(model.transform(at: rested) == Self.fit && model.isRestingAtFit)
    }

    /// Inside [−1000, 0] the horizontal offset follows the pan; what a pan cannot take at an edge
    /// is returned, and exactly 0 when it can take it all.
    @Test(arguments: [
        // pan, offset x after, returned
        (-300.0, -800.0, 0.0), (-500, -1000, 0), (-600, -1000, -100), (400, -100, 0), (700, 0, 200), (2000, 0, 1500),
    ])
    func horizontalPansStopAtTheEdges(dx: Double, x: Double, leftover: Double) {
        var model = Self.zoomed()
        #expect(model.pan(by: Point(x: dx, y: 0), at: 0.5) == leftover)
        #expect(model.transform(at: 0.5).offset.x == x)
        #expect(model.transform(at: 0.5).offset.y == -100)
    }

    /// Vertically the offset in [−200, 0] rubber-bands beyond (d = 800 px).
    @Test(arguments: [
        // pan, offset y after
        (-50.0, -150.0), (-150, -200 - rubberBand(50)), (-500, -200 - rubberBand(400)), (150, rubberBand(50)),
    ] as [(Double, Double)])
    func verticalPansRubberBand(dy: Double, y: Double) {
        var model = Self.zoomed()
        #expect(model.pan(by: Point(x: 0, y: dy), at: 0.5) == 0)
        #expect(abs(model.transform(at: 0.5).offset.y - y) < 1e-9)
    }

    /// At fit the photo fills the width (no horizontal room: all of a pan comes back) and
    /// rubber-bands vertically about its centred 150.
    @Test func atFitHorizontalPansAreHandedBack() {
        var model = ZoomScrollModel(bounds: Self.bounds)
        #expect(model.pan(by: Point(x: -100, y: 30), at: 0) == -100)
        #expect(model.transform(at: 0).offset.x == 0)
        #expect(abs(model.transform(at: 0).offset.y - (150 + Self.rubberBand(30))) < 1e-9)
    }

    /// Released at (−500, −100) moving (−1000, 200) px/s, each axis coasts with `.fast`
    /// deceleration to −500 − 1000/k and −100 + 200/k, inside the bounds. The horizontal one
    /// slows under 20 px/s last, once 1000·e^(−k·t) < 20: t > ln(50)/k ≈ 0.389 s.
    @Test func aReleaseCoastsWithMomentum() {
        var model = Self.zoomed()
        model.release(velocity: Point(x: -1000, y: 200), at: 1)
        #expect(model.isAnimating && !model.isTracking)
        for t in [0, 0.05, 0.1, 0.3] {
            let shown = model.transform(at: 1 + t)
            #expect(shown.scale == 1)
            #expect(abs(shown.offset.x - Self.coasting(from: -500, velocity: -1000, after: t)) < 1e-9, "t \(t)")
            #expect(abs(shown.offset.y - Self.coasting(from: -100, velocity: 200, after: t)) < 1e-9, "t \(t)")
        }
        let done = Double.log(50) / Self.decay
        model.settle(at: 1 + done * (1 - 1e-6))
        #expect(model.isAnimating)
        model.settle(at: 1 + done * (1 + 1e-6))
        #expect(!model.isAnimating)
        let rest = Point(
            x: Self.coasting(from: -500, velocity: -1000, after: done * (1 + 1e-6)),
            y: Self.coasting(from: -100, velocity: 200, after: done * (1 + 1e-6)))
        #expect((model.transform(at: 9).offset - rest).length < 1e-9)
    }

    /// A fling that would coast past the left edge bounces back onto it; a vertical overpull
    /// springs back onto its edge. Both come to rest exactly on the edges.
    @Test func aReleasePastTheEdgesComesBackOntoThem() {
        var model = Self.zoomed()
        _ = model.pan(by: Point(x: -450, y: -150), at: 0.5)
        // x −950; y −200 − b(50).
        model.release(velocity: Point(x: -3000, y: 0), at: 1)
        // −950 − 3000/k ≈ −1248.5 without the edge.
        let farthest = (0...100).map { model.transform(at: 1 + Double($0) / 200).offset.x }.min() ?? 0
        #expect(farthest < -1000 && farthest > -1248.5)
        let rested = Self.settle(&model, from: 1)
        #expect(model.transform(at: rested) == ScaleTranslate(scale: 1, offset: Point(x: -1000, y: -200)))
    }

    /// Caught mid-bounce beyond the left edge, the photo may be pushed back in but not further out.
    @Test func aPhotoCaughtPastTheEdgeOnlyMovesBackIn() {
        var model = Self.zoomed()
        _ = model.pan(by: Point(x: -450, y: 0), at: 0.5)
        model.release(velocity: Point(x: -3000, y: 0), at: 1)
        // The coast reaches −1000 after ln(1/(1 − 50·k/3000))/k ≈ 0.018 s and the bounce peaks
        // about 1/30 s later, some 30 px out.
        let caught = model.transform(at: 1.05).offset.x
        #expect(caught < -1010)
        #expect(model.pan(by: Point(x: -10, y: 0), at: 1.05) == -10)
        #expect(model.transform(at: 1.05).offset.x == caught)
        #expect(model.pan(by: Point(x: 5, y: 0), at: 1.06) == 0)
        #expect(model.transform(at: 2).offset.x == caught + 5)
    }

    @Test func aGrabMidAnimationHoldsTheTransform() {
        var model = ZoomScrollModel(bounds: Self.bounds)
        model.animate(to: Self.zoomedAtCentre, at: 0)
        let shown = model.transform(at: 0.03)
        #expect(shown != Self.fit && shown != Self.zoomedAtCentre)
        model.grab(at: 0.03)
        #expect(model.isTracking && !model.isAnimating)
        #expect(Self.isClose(model.transform(at: 0.03), shown) && Self.isClose(model.transform(at: 1), shown))
    }

    @Test(arguments: [0.0, -2, .infinity, .nan])
    func meaninglessZoomFactorsAreIgnored(factor: Double) {
        var model = Self.zoomed()
        model.zoom(by: factor, anchor: Self.centre, at: 0.5)
        #expect(model.transform(at: 0.5) == Self.zoomedAtCentre)
    }

    // MARK: Rebasing onto new bounds

    /// At fit the model rests at the new fit: 4000×2000 at 0.25 (1000×500) and, in an 800×600
    /// window, 2000×1000 at min(0.4, 0.6) = 0.4 (800×400, 100 px above and below).
    @Test(arguments: [
        (Size(width: 4000, height: 2000), Size(width: 1000, height: 800), ScaleTranslate(scale: 0.25, offset: Point(x: 0, y: 150))),
        (Size(width: 2000, height: 1000), Size(width: 800, height: 600), ScaleTranslate(scale: 0.4, offset: Point(x: 0, y: 100))),
    ])
    func atFitARebaseRestsAtTheNewFit(content: Size, viewport: Size, fit: ScaleTranslate) {
        var model = ZoomScrollModel(bounds: Self.bounds)
        model.rebase(to: ZoomBounds(content: content, viewport: viewport), at: 1)
        #expect(Self.isClose(model.transform(at: 1), fit))
        #expect(model.isRestingAtFit)
    }

    /// Zoomed, the image point under the window centre stays under the new centre at the same
    /// on-screen size (scale divided by the photo's growth), as far as the new limits and bounds
    /// allow.
    @Test(arguments: [
        // The same photo at twice the resolution: point (1000, 500) becomes (2000, 1000), scale 1/2;
        // offset (500 − 1000, 400 − 500).
        (zoomedAtCentre, Size(width: 4000, height: 2000), Size(width: 1000, height: 800),
         ScaleTranslate(scale: 0.5, offset: Point(x: -500, y: -100))),
        // A smaller window: point (1000, 500) under (400, 300) at scale 1, inside [−1200, 0] × [−400, 0].
        (zoomedAtCentre, Size(width: 2000, height: 1000), Size(width: 800, height: 600),
         ScaleTranslate(scale: 1, offset: Point(x: -600, y: -200))),
        // At the maximum 8 (point (1000, 500) under the centre) onto a 500×250 photo: scale 32 is
        // clamped to its maximum max(2.5, 8, 2) = 8; point (250, 125) · 8 = (2000, 1000) under
        // (500, 400) gives (−1500, −600), inside [−3000, 0] × [−1200, 0].
        (ScaleTranslate(scale: 8, offset: Point(x: -7500, y: -3600)), Size(width: 500, height: 250), Size(width: 1000, height: 800),
         ScaleTranslate(scale: 8, offset: Point(x: -1500, y: -600))),
        // Against the right edge, point (1500, 500), in a 1400×800 window (fit 0.7, maximum 8):
        // under (700, 400) x would be 700 − 1500 = −800, past the bound 1400 − 2000 = −600.
        (ScaleTranslate(scale: 1, offset: Point(x: -1000, y: -100)), Size(width: 2000, height: 1000), Size(width: 1400, height: 800),
         ScaleTranslate(scale: 1, offset: Point(x: -600, y: -100))),
    ] as [(ScaleTranslate, Size, Size, ScaleTranslate)])
    func zoomedARebaseKeepsTheCentrePoint(from: ScaleTranslate, content: Size, viewport: Size, to: ScaleTranslate) {
        var model = ZoomScrollModel(bounds: Self.bounds)
        model.animate(to: from, at: 0)
        let rested = Self.settle(&model, from: 0)
        #expect(model.transform(at: rested) == from)
        model.rebase(to: ZoomBounds(content: content, viewport: viewport), at: rested)
        #expect(Self.isClose(model.transform(at: rested), to), "\(model.transform(at: rested))")
        #expect(!model.isAnimating && !model.isRestingAtFit)
    }

    /// A rebase mid-coast stops the motion where it is.
    @Test func aRebaseStopsMotion() {
        var model = Self.zoomed()
        model.release(velocity: Point(x: -1000, y: 0), at: 1)
        let x = Self.coasting(from: -500, velocity: -1000, after: 0.1)
        // Point under the centre: ((500 − x), 500); in an 800×600 window at scale 1 it goes
        // under (400, 300): offset (400 − 500 + x, −200).
        model.rebase(to: ZoomBounds(content: Size(width: 2000, height: 1000), viewport: Size(width: 800, height: 600)), at: 1.1)
        #expect(!model.isAnimating && !model.isTracking)
        #expect(Self.isClose(model.transform(at: 5), ScaleTranslate(scale: 1, offset: Point(x: x - 100, y: -200))))
    }
}
