import RealModule
import RiffleGeometry
import RiffleInteraction
import Testing

/// The progress is the zoom's spring, critically damped from rest at 0 to 1 with ω = 40 rad/s:
/// p(t) = 1 − (1 + ω·t)·e^(−ω·t).
@Suite struct TurnAnimationTests {
    static let omega = 40.0

    static func progress(_ t: Double) -> Double { 1 - (1 + omega * t) * Double.exp(-omega * t) }

    /// A 3000×2000 photo at fit in a 1000×800 window (scale 1/3, centre (500, 400)) turning a
    /// quarter to its turned fit (scale 0.4, 2000×3000 shown 800 tall, same centre).
    static let photo = Size(width: 3000, height: 2000)
    static let from = TurnAnimation.Placement(centre: Point(x: 500, y: 400), scale: 1.0 / 3, rotation: .none)
    static let end = TurnAnimation.Placement(centre: Point(x: 500, y: 400), scale: 0.4, rotation: Rotation(quarterTurns: 1))

    @Test func turnScaleAndCentreShareTheSpringsProgress() {
        let animation = TurnAnimation(from: Self.from, to: Self.end, content: Self.photo, start: 2)
        let moved = TurnAnimation.Placement(centre: Point(x: 480, y: 410), scale: 0.4, rotation: Rotation(quarterTurns: 1))
        #expect(animation.placement(at: 1, toward: Self.end) == Self.from)
        for t in [0.01, 0.03, 0.06, 0.12] {
            let p = Self.progress(t)
            let shown = animation.placement(at: 2 + t, toward: moved)
            #expect(abs(shown.rotation.quarterTurns - p) < 1e-12, "t \(t)")
            #expect(abs(shown.scale - (1.0 / 3 + (0.4 - 1.0 / 3) * p)) < 1e-12, "t \(t)")
            // The end is read at each instant: the centre heads for where the zoom rests now.
            #expect((shown.centre - Point(x: 500 - 20 * p, y: 400 + 10 * p)).length < 1e-9, "t \(t)")
        }
        let done = animation.placement(at: 10, toward: moved)
        #expect(done == moved && done.rotation.wholeQuarters == 1)
    }

    /// Done when every point of the picture is within half a pixel: with the travel bound
    /// L = |Δc| + |Δs|·r + max(s)·r·|Δθ|·π/2 (r the half diagonal), once L·(1 − p) < 0.5 and the
    /// speed L·p' < 20 from then on; a quarter turn of this photo takes about a third of a second.
    @Test func doneWithinHalfAPixel() {
        let animation = TurnAnimation(from: Self.from, to: Self.end, content: Self.photo, start: 0)
        let r = (3000.0 * 3000 + 2000 * 2000).squareRoot() / 2
        let travel = (0.4 - 1.0 / 3) * r + 0.4 * r * .pi / 2
        // Bisect the first t past the peak of p' (1/ω) where both hold.
        func holds(_ t: Double) -> Bool {
            let s = max(t, 1 / Self.omega)
            return travel * (1 - Self.progress(t)) < 0.5 && travel * Self.omega * Self.omega * s * Double.exp(-Self.omega * s) < 20
        }
        var low = 0.0, high = 2.0
        for _ in 0..<60 { let mid = (low + high) / 2; if holds(mid) { high = mid } else { low = mid } }
        #expect(!animation.isDone(at: high - 1e-6) && animation.isDone(at: high + 1e-6))
        #expect(high > 0.25 && high < 0.4, "a quarter turn takes \(high) s")
    }

    /// A placement and the transform of its turned bounding box describe the same drawing.
    @Test(arguments: [0.0, 0.4, 1, 2.5, 3])
    func placementAndBoxTransformAgree(quarterTurns: Double) {
        let rotation = Rotation(quarterTurns: quarterTurns)
        let placement = TurnAnimation.Placement(centre: Point(x: 321, y: 123), scale: 0.25, rotation: rotation)
        let box = placement.boxTransform(content: Self.photo)
        let back = TurnAnimation.Placement(transform: box, rotation: rotation, content: Self.photo)
        #expect((back.centre - placement.centre).length < 1e-9 && back.scale == placement.scale)
        // The picture's corner (0, 0) lands at centre + s·R(−w/2, −h/2) either way.
        let corner = placement.centre + rotation.apply(Point(x: -1500, y: -1000)) * 0.25
        #expect((box.apply(rotation.turn(.zero, inPictureOf: Self.photo)) - corner).length < 1e-9)
    }
}
