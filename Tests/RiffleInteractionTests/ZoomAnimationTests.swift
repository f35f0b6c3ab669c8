import RealModule
import RiffleGeometry
import RiffleInteraction
import Testing

/// The progress is a critically damped spring from rest at 0 to 1 with ω = 40 rad/s
/// (PhotoSwipe's zoom spring): p(t) = 1 − (1 + ω·t)·e^(−ω·t), p'(t) = ω²·t·e^(−ω·t).
@Suite struct ZoomAnimationTests {
    static let omega = 40.0

    static func progress(_ t: Double) -> Double { 1 - (1 + omega * t) * Double.exp(-omega * t) }

    /// A zoom from 1× to 2× about page point (500, 400) of a 1000×800 photo: every corner travels
    /// (±500, ±400) px, √(500² + 400²) ≈ 640.3 px.
    static let zoomInFrom = ScaleTranslate(scale: 1, offset: .zero)
    static let zoomInTo = ScaleTranslate(scale: 2, offset: Point(x: -500, y: -400))
    static let photo = Size(width: 1000, height: 800)

    @Test func scaleAndOffsetShareTheSpringsProgress() {
        let animation = ZoomAnimation(from: Self.zoomInFrom, to: Self.zoomInTo, content: Self.photo, start: 3)
        #expect(animation.transform(at: 2) == Self.zoomInFrom)
        #expect(animation.transform(at: 3) == Self.zoomInFrom)
        for t in [0.005, 0.025, 0.05, 0.1] {
            let p = Self.progress(t)
            let shown = animation.transform(at: 3 + t)
            #expect(abs(shown.scale - (1 + p)) < 1e-12, "t \(t)")
            #expect(abs(shown.offset.x + 500 * p) < 1e-9 && abs(shown.offset.y + 400 * p) < 1e-9, "t \(t)")
            // The fixed point (o0 − o1)/(s1 − s0) = (500, 400) stays at page (500, 400).
            #expect((shown.apply(Point(x: 500, y: 400)) - Point(x: 500, y: 400)).length < 1e-9, "t \(t)")
        }
        #expect(animation.transform(at: 10) == Self.zoomInTo)
    }

    /// Done exactly when every corner is within 0.5 px of its place (distance, not per axis) and
    /// slower than 20 px/s, for good: with L the farthest corner's travel, L·(1 − p) < 0.5 and
    /// L·sup p' < 20 from then on. 1 − p = (1 + ωt)·e^(−ωt) decreases; p' peaks at t = 1/ω, so its
    /// supremum from t on is p'(max(t, 1/ω)). The threshold is found by bisection of that
    /// condition, then the animation is asked just before and just after it.
    @Test(arguments: [
        // from, to, content, farthest corner travel L
        (zoomInFrom, zoomInTo, photo, (500.0 * 500 + 400 * 400).squareRoot()),
        // A pan only: every corner moves (−30, 40), 50 px.
        (ScaleTranslate(scale: 2, offset: Point(x: -100, y: -100)), ScaleTranslate(scale: 2, offset: Point(x: -130, y: -60)), photo, 50),
        // Zoom out of a wide photo from 0.5 to 0.25 with the origin moving (10, 20): the far corner
        // (4000, 1000) moves (10 − 1000, 20 − 250).
        (ScaleTranslate(scale: 0.5, offset: Point(x: -600, y: -100)), ScaleTranslate(scale: 0.25, offset: Point(x: -590, y: -80)),
         Size(width: 4000, height: 1000), (990.0 * 990 + 230 * 230).squareRoot()),
    ] as [(ScaleTranslate, ScaleTranslate, Size, Double)])
    func doneWhenEveryCornerIsWithinHalfAPixel(from: ScaleTranslate, to: ScaleTranslate, content: Size, travel: Double) {
        func done(_ t: Double) -> Bool {
            let peak = max(t, 1 / Self.omega)
            let speed = Self.omega * Self.omega * peak * Double.exp(-Self.omega * peak)
            return travel * (1 - Self.progress(t)) < 0.5 && travel * speed < 20
        }
        var low = 0.0, high = 2.0
        for _ in 0..<100 {
            let middle = (low + high) / 2
            if done(middle) { high = middle } else { low = middle }
        }
        let animation = ZoomAnimation(from: from, to: to, content: content, start: 1)
        #expect(!animation.isDone(at: 1 + high * (1 - 1e-6)))
        #expect(animation.transform(at: 1 + high * (1 - 1e-6)) != to)
        #expect(animation.isDone(at: 1 + high * (1 + 1e-6)))
        #expect(animation.transform(at: 1 + high * (1 + 1e-6)) == to)
    }

    /// Corners that travel (0.3, 0.2), 0.36 px, already lie within half a pixel of their places.
    @Test func aSubPixelChangeIsDoneAtOnce() {
        let to = ScaleTranslate(scale: 1, offset: Point(x: 0.3, y: 0.2))
        let animation = ZoomAnimation(from: Self.zoomInFrom, to: to, content: Self.photo, start: 1)
        #expect(animation.isDone(at: 1))
        #expect(animation.transform(at: 1) == to)
    }
}
