import RealModule
import RiffleInteraction
import Testing

/// The return spring is critically damped at ω = 30 rad/s (`SpringDescription.edgeBounce`), so from
/// offset x0 at velocity v0 the offset is x(t) = (x0 + (v0 + ω·x0)·t)·e^(−ω·t).
@Suite struct DismissDragModelTests {
    static let omega = 30.0

    static func returning(from x0: Double, velocity v0: Double, after t: Double) -> Double {
        (x0 + (v0 + omega * x0) * t) * Double.exp(-omega * t)
    }

    @Test func followsTheDragOnlyWhileHeld() {
        var model = DismissDragModel()
        model.drag(by: 50)
        #expect(model.offset(at: 0) == 0)
        model.grab(at: 0)
        model.drag(by: 120)
        model.drag(by: -20)
        #expect(model.offset(at: 0) == 100)
        #expect(!model.isAnimating)
    }

    /// a = 1 − |dy| / (H/3), clamped to [0, 1]. H = 900: the fade spans 300 px.
    @Test(arguments: [
        // offset, viewport height, alpha
        (0.0, 900.0, 1.0), (150, 900, 0.5), (-150, 900, 0.5), (225, 900, 0.25), (300, 900, 0), (450, 900, 0), (-1000, 900, 0),
        // An empty viewport shows no fade.
        (100, 0, 1), (100, -5, 1),
    ])
    func backgroundAlpha(offset: Double, height: Double, alpha: Double) {
        var model = DismissDragModel()
        model.grab(at: 0)
        model.drag(by: offset)
        #expect(abs(model.backgroundAlpha(at: 0, viewportHeight: height) - alpha) < 1e-12)
    }

    /// From 200 px a flick of −10 000 px/s towards 0 is capped at ω·200 = 6000 px/s, the speed
    /// at which the critically damped return just reaches 0: x(t) = 200·e^(−30t) > 0. Uncapped,
    /// (200 − 4000·t)·e^(−30t) would cross 0 at t = 0.05 s.
    @Test func aFlickTowardsZeroIsCappedSoThePhotoNeverCrossesIt() {
        var model = DismissDragModel()
        model.grab(at: 0)
        model.drag(by: 200)
        model.release(velocity: -10_000, at: 1)
        #expect(model.isAnimating)
        for k in 0...400 {
            let t = Double(k) / 1000
            let expected = 200 * Double.exp(-Self.omega * t)
            #expect(abs(model.offset(at: 1 + t) - expected) < 1e-9, "t \(t)")
        }
    }

    @Test(arguments: [
        // offset at release, velocity: below the cap towards 0, and away from 0 (never capped).
        (200.0, -3000.0), (-200, 3000), (200, 10_000), (-150, -20_000), (200, 0),
    ])
    func slowerOrOutwardReleasesKeepTheirVelocity(offset: Double, velocity: Double) {
        var model = DismissDragModel()
        model.grab(at: 0)
        model.drag(by: offset)
        model.release(velocity: velocity, at: 2)
        for t in [0, 0.01, 0.05, 0.1, 0.3] {
            let expected = Self.returning(from: offset, velocity: velocity, after: t)
            #expect(abs(model.offset(at: 2 + t) - expected) < 1e-9, "t \(t)")
        }
    }

    /// From 200 px released still, x = 200·e^(−30t): within 0.5 px once t > ln(400)/30 ≈ 0.1997 s
    /// (its speed 6000·e^(−30t) is under 20 px/s from ln(300)/30 ≈ 0.190 s, earlier).
    @Test func settlesAtZeroOnceWithinHalfAPixel() {
        var model = DismissDragModel()
        model.grab(at: 0)
        model.drag(by: 200)
        model.release(velocity: -6000, at: 0)
        let done = Double.log(400) / Self.omega
        model.settle(at: done - 1e-6)
        #expect(model.isAnimating)
        model.settle(at: done + 1e-6)
        #expect(!model.isAnimating)
        #expect(model.offset(at: done + 1e-6) == 0)
        #expect(model.backgroundAlpha(at: 5, viewportHeight: 900) == 1)
    }

    @Test func aGrabMidReturnCatchesThePhotoWhereItIs() {
        var model = DismissDragModel()
        model.grab(at: 0)
        model.drag(by: 200)
        model.release(velocity: 0, at: 0)
        let shown = model.offset(at: 0.05)
        #expect(abs(shown - Self.returning(from: 200, velocity: 0, after: 0.05)) < 1e-9)
        model.grab(at: 0.05)
        #expect(!model.isAnimating)
        #expect(model.offset(at: 0.05) == shown && model.offset(at: 1) == shown)
        model.drag(by: 10)
        #expect(model.offset(at: 1) == shown + 10)
    }

    @Test func aReleaseAtRestIsNotAnAnimation() {
        var model = DismissDragModel()
        model.grab(at: 0)
        model.release(velocity: 0, at: 0)
        #expect(!model.isAnimating && model.offset(at: 0) == 0)
    }
}
