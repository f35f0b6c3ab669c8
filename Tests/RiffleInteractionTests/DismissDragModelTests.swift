import RealModule
import RiffleGeometry
import RiffleInteraction
import Testing

/// The return spring is critically damped at ω = 30 rad/s (`SpringDescription.edgeBounce`), so from
/// offset x0 at velocity v0 each axis is at x(t) = (x0 + (v0 + ω·x0)·t)·e^(−ω·t).
@Suite struct DismissDragModelTests {
    static let omega = 30.0
    static let anchor = Point(x: 600, y: 500)

    static func returning(from x0: Double, velocity v0: Double, after t: Double) -> Double {
        (x0 + (v0 + omega * x0) * t) * Double.exp(-omega * t)
    }

    static func dragged(by offset: Point, at t: Double = 0) -> DismissDragModel {
        var model = DismissDragModel()
        model.grab(at: t, anchor: anchor)
        model.drag(by: offset)
        return model
    }

    @Test func followsTheDragOnBothAxesOnlyWhileHeld() {
        var model = DismissDragModel()
        model.drag(by: Point(x: 5, y: 50))
        #expect(model.offset(at: 0) == .zero)
        model.grab(at: 0, anchor: Self.anchor)
        model.drag(by: Point(x: 30, y: 120))
        model.drag(by: Point(x: -10, y: -20))
        #expect(model.offset(at: 0) == Point(x: 20, y: 100))
        #expect(!model.isAnimating)
    }

    /// f = min(|dy| / (H/3), 1); s = 1 − 0.4·f; a = 1 − f. H = 900: the third is 300 px. The
    /// horizontal offset changes neither.
    @Test(arguments: [
        // dx, dy, viewport height, scale, alpha
        (0.0, 0.0, 900.0, 1.0, 1.0), (0, 150, 900, 0.8, 0.5), (0, -150, 900, 0.8, 0.5), (-200, 150, 900, 0.8, 0.5),
        (0, 225, 900, 0.7, 0.25), (0, 300, 900, 0.6, 0), (0, 450, 900, 0.6, 0), (0, -1000, 900, 0.6, 0),
        (300, 0, 900, 1, 1),
        // An empty viewport shows no fade and no shrink.
        (0, 100, 0, 1, 1), (0, 100, -5, 1, 1),
    ])
    func scaleAndBackgroundAlpha(dx: Double, dy: Double, height: Double, scale: Double, alpha: Double) {
        let model = Self.dragged(by: Point(x: dx, y: dy))
        #expect(abs(model.scale(at: 0, viewportHeight: height) - scale) < 1e-12)
        #expect(abs(model.backgroundAlpha(at: 0, viewportHeight: height) - alpha) < 1e-12)
    }

    /// Anchor (600, 500), offset (30, 150), H = 900: s = 0.8, so p ↦ 0.8·p + 0.2·(600, 500) + (30, 150)
    /// = 0.8·p + (150, 250). The anchor lands on (630, 650), the anchor plus the offset: the point
    /// that was under the pointer still is.
    @Test func thePhotoShrinksAboutThePointWhereThePanLocked() {
        let model = Self.dragged(by: Point(x: 30, y: 150))
        let transform = model.transform(at: 0, viewportHeight: 900)
        #expect(abs(transform.scale - 0.8) < 1e-12)
        #expect(abs(transform.offset.x - 150) < 1e-9 && abs(transform.offset.y - 250) < 1e-9)
        let anchor = transform.apply(Self.anchor)
        #expect(abs(anchor.x - 630) < 1e-9 && abs(anchor.y - 650) < 1e-9)
        #expect(DismissDragModel().transform(at: 0, viewportHeight: 900) == .identity)
    }

    /// H = 1000: flicks are faster than 800 px/s; the distance is 15 % of H = 150 px.
    @Test(arguments: [
        // dy at release, vertical velocity (px/s), dismisses
        (40.0, 1200.0, true), // a fast flick down from near rest
        (1, 801, true),
        (200, 100, true), // a slow, long drag
        (200, 0, true), // a long drag held still before letting go
        (300, -500, true), // far down, drifting back up slowly
        (100, 300, false), // a short drag
        (150, 0, false), // exactly 15 %: not past it
        (151, 0, true),
        (100, 800, false), // exactly 800 px/s is not a flick; 10 % is short
        (300, -1000, false), // dragged far down, then flicked back up
        (300, -801, false),
        (-200, -1500, false), // an upward drag, flicked on up
        (-200, 1500, false), // above rest, flicked down: still never
        (-20, 0, false),
        (0, 2000, false), // at rest
    ])
    func releaseDecision(dy: Double, velocity: Double, dismisses: Bool) {
        let model = Self.dragged(by: Point(x: 70, y: dy))
        #expect(model.dismisses(releasedWith: Point(x: -400, y: velocity), viewportHeight: 1000) == dismisses)
    }

    @Test func onlyAHeldPhotoCanBeDismissed() {
        #expect(!DismissDragModel().dismisses(releasedWith: Point(x: 0, y: 3000), viewportHeight: 1000))
        var model = Self.dragged(by: Point(x: 0, y: 400))
        model.release(velocity: .zero, at: 0)
        #expect(model.isAnimating)
        #expect(!model.dismisses(releasedWith: Point(x: 0, y: 3000), viewportHeight: 1000))
    }

    /// Photo at fit (0, 100)–(1200, 900) in a 1200 × 900 window, anchor (600, 500), offset (30, 150):
    /// s = 0.8, shown at 0.8·p + (150, 250): (150, 330), 960 × 640. Released at (200, 1200) px/s:
    /// f' = 1200 / 300 = 4 /s, s' = −1.6 /s, alpha 0.5 falling at 4 /s; an edge at p moves at
    /// v + (p − anchor)·s': minX 200 + 600·1.6 = 1160, maxX 200 − 600·1.6 = −760,
    /// minY 1200 + 400·1.6 = 1840, maxY 1200 − 400·1.6 = 560.
    @Test func aDismissHandsOverTheShownFrameAndItsVelocity() {
        var model = Self.dragged(by: Point(x: 30, y: 150))
        let fit = Rect(x: 0, y: 100, width: 1200, height: 800)
        let velocity = Point(x: 200, y: 1200)
        #expect(model.dismisses(releasedWith: velocity, viewportHeight: 900))
        let state = model.dismiss(velocity: velocity, photoFrame: fit, viewportHeight: 900, at: 0.5)
        let expected = PhotoTransition.State(
            frame: Rect(x: 150, y: 330, width: 960, height: 640),
            frameVelocity: PhotoTransition.FrameVelocity(minX: 1160, minY: 1840, maxX: -760, maxY: 560),
            backgroundAlpha: 0.5, backgroundAlphaVelocity: -4)
        let e = 1e-9
        #expect(abs(state.frame.minX - expected.frame.minX) < e && abs(state.frame.minY - expected.frame.minY) < e)
        #expect(abs(state.frame.width - expected.frame.width) < e && abs(state.frame.height - expected.frame.height) < e)
        #expect(abs(state.frameVelocity.minX - 1160) < e && abs(state.frameVelocity.maxX + 760) < e)
        #expect(abs(state.frameVelocity.minY - 1840) < e && abs(state.frameVelocity.maxY - 560) < e)
        #expect(abs(state.backgroundAlpha - 0.5) < e && abs(state.backgroundAlphaVelocity + 4) < e)
        // The photo now belongs to the flight.
        #expect(model.offset(at: 0.5) == .zero && !model.isAnimating)
    }

    /// Within a third of the height the shown edges are linear in the offset, so the handed-over
    /// rates equal the change of the frame when the drag goes on at that velocity for dt.
    @Test(arguments: [Point(x: 200, y: 1200), Point(x: -900, y: -300), Point(x: 0, y: 2500)])
    func theHandedOverVelocityIsTheFramesRateOfChange(velocity: Point) {
        let fit = Rect(x: 0, y: 100, width: 1200, height: 800), dt = 0.01
        var now = Self.dragged(by: Point(x: 30, y: 150))
        let later = Self.dragged(by: Point(x: 30 + velocity.x * dt, y: 150 + velocity.y * dt))
        let frame = later.transform(at: 0, viewportHeight: 900).apply(fit)
        let state = now.dismiss(velocity: velocity, photoFrame: fit, viewportHeight: 900, at: 0)
        #expect(abs(state.frame.minX + state.frameVelocity.minX * dt - frame.minX) < 1e-9)
        #expect(abs(state.frame.minY + state.frameVelocity.minY * dt - frame.minY) < 1e-9)
        #expect(abs(state.frame.maxX + state.frameVelocity.maxX * dt - frame.maxX) < 1e-9)
        #expect(abs(state.frame.maxY + state.frameVelocity.maxY * dt - frame.maxY) < 1e-9)
        let alpha = later.backgroundAlpha(at: 0, viewportHeight: 900)
        #expect(abs(state.backgroundAlpha + state.backgroundAlphaVelocity * dt - alpha) < 1e-12)
    }

    /// Beyond a third of the height the scale and alpha have stopped changing: the frame moves
    /// with the pointer and the alpha stays at 0.
    @Test func pastAThirdOnlyThePointersVelocityIsHandedOver() {
        var model = Self.dragged(by: Point(x: 0, y: 400))
        let state = model.dismiss(
            velocity: Point(x: 50, y: 900), photoFrame: Rect(x: 0, y: 100, width: 1200, height: 800), viewportHeight: 900, at: 0)
        #expect(state.frameVelocity == PhotoTransition.FrameVelocity(minX: 50, minY: 900, maxX: 50, maxY: 900))
        #expect(state.backgroundAlpha == 0 && state.backgroundAlphaVelocity == 0)
    }

    /// From (150, 200) a flick of (−10 000, −10 000) px/s towards 0 is capped per axis at ω·|x0|
    /// (4500 and 6000 px/s), the speed at which the critically damped return just reaches 0:
    /// x(t) = x0·e^(−30t) > 0. Uncapped, (200 − 4000·t)·e^(−30t) would cross 0 at t = 0.05 s.
    @Test func aFlickTowardsRestIsCappedSoThePhotoNeverCrossesIt() {
        var model = Self.dragged(by: Point(x: 150, y: 200))
        model.release(velocity: Point(x: -10_000, y: -10_000), at: 1)
        #expect(model.isAnimating)
        for k in 0...400 {
            let t = Double(k) / 1000
            let e = Double.exp(-Self.omega * t)
            #expect(abs(model.offset(at: 1 + t).x - 150 * e) < 1e-9, "t \(t)")
            #expect(abs(model.offset(at: 1 + t).y - 200 * e) < 1e-9, "t \(t)")
        }
    }

    @Test(arguments: [
        // offset at release, velocity: below the cap towards 0, and away from 0 (never capped).
        (Point(x: 40, y: 200), Point(x: -1000, y: -3000)), (Point(x: -60, y: -200), Point(x: 500, y: 3000)),
        (Point(x: 0, y: 200), Point(x: 800, y: 10_000)), (Point(x: 100, y: -150), Point(x: 5000, y: -20_000)),
        (Point(x: 10, y: 200), .zero),
    ])
    func slowerOrOutwardReleasesKeepTheirVelocity(offset: Point, velocity: Point) {
        var model = Self.dragged(by: offset)
        model.release(velocity: velocity, at: 2)
        for t in [0, 0.01, 0.05, 0.1, 0.3] {
            let shown = model.offset(at: 2 + t)
            #expect(abs(shown.x - Self.returning(from: offset.x, velocity: velocity.x, after: t)) < 1e-9, "t \(t)")
            #expect(abs(shown.y - Self.returning(from: offset.y, velocity: velocity.y, after: t)) < 1e-9, "t \(t)")
        }
    }

    /// From (0, 200) released at the cap, y = 200·e^(−30t): within 0.5 px once t > ln(400)/30 ≈
    /// 0.1997 s (its speed 6000·e^(−30t) is under 20 px/s from ln(300)/30 ≈ 0.190 s, earlier).
    @Test func settlesAtRestOnceWithinHalfAPixel() {
        var model = Self.dragged(by: Point(x: 0, y: 200))
        model.release(velocity: Point(x: 0, y: -6000), at: 0)
        let done = Double.log(400) / Self.omega
        model.settle(at: done - 1e-6)
        #expect(model.isAnimating)
        model.settle(at: done + 1e-6)
        #expect(!model.isAnimating)
        #expect(model.offset(at: done + 1e-6) == .zero)
        #expect(model.backgroundAlpha(at: 5, viewportHeight: 900) == 1 && model.scale(at: 5, viewportHeight: 900) == 1)
    }

    /// Scale and alpha follow dy back: at t = 0.05 s after a still release from dy = 200,
    /// dy = 200·(1 + 1.5)·e^(−1.5) = 111.57 px.
    @Test func scaleAndAlphaFollowTheReturn() {
        var model = Self.dragged(by: Point(x: 0, y: 200))
        model.release(velocity: .zero, at: 0)
        let dy = 500 * Double.exp(-1.5)
        #expect(abs(model.offset(at: 0.05).y - dy) < 1e-9)
        #expect(abs(model.scale(at: 0.05, viewportHeight: 900) - (1 - 0.4 * dy / 300)) < 1e-12)
        #expect(abs(model.backgroundAlpha(at: 0.05, viewportHeight: 900) - (1 - dy / 300)) < 1e-12)
    }

    /// Caught mid-return, the photo stays where it is, shrunk about its first anchor (a new anchor
    /// would move every point not on the line between the two).
    @Test func aGrabMidReturnCatchesThePhotoWhereItIs() {
        var model = Self.dragged(by: Point(x: 80, y: 200))
        model.release(velocity: .zero, at: 0)
        let shown = model.transform(at: 0.05, viewportHeight: 900)
        #expect(abs(model.offset(at: 0.05).y - Self.returning(from: 200, velocity: 0, after: 0.05)) < 1e-9)
        model.grab(at: 0.05, anchor: Point(x: 100, y: 100))
        #expect(!model.isAnimating)
        #expect(model.transform(at: 0.05, viewportHeight: 900) == shown && model.transform(at: 1, viewportHeight: 900) == shown)
        let offset = model.offset(at: 1)
        model.drag(by: Point(x: -5, y: 10))
        #expect(model.offset(at: 1) == offset + Point(x: -5, y: 10))
    }

    @Test func aReleaseAtRestIsNotAnAnimation() {
        var model = DismissDragModel()
        model.grab(at: 0, anchor: Self.anchor)
        model.release(velocity: .zero, at: 0)
        #expect(!model.isAnimating && model.offset(at: 0) == .zero)
    }
}
