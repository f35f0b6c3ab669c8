import RealModule
import RiffleInteraction
import Testing

/// A 5000 px content in a 1000 px viewport: the position rests in [0, 4000].
///
/// Formulas the expected values come from, written out here rather than taken from the model:
/// - the rubber band b(x) = (1 − 1/(x·c/d + 1))·d = x·c·d/(x·c + d), c = 0.55, d = 1000;
/// - UIScrollView's `.normal` coast, r = 0.998 of the velocity kept per millisecond:
///   v(t) = v0·r^(1000t) = v0·e^(−k·t), k = −1000·ln r per second, so
///   x(t) = x0 + v0·(1 − e^(−k·t))/k and the speed at a point is v0 − k·(x − x0);
/// - the springs (edge bounce and animated scrolls), critically damped at ω = 30 rad/s: from x0 at
///   v0 about the rest point T, x(t) = T + (D + (v0 + ω·D)·t)·e^(−ω·t) with D = x0 − T, moving at
///   x'(t) = (v0 − ω·(v0 + ω·D)·t)·e^(−ω·t). From the edge (D = 0) at v it peaks v/(ω·e) past the
///   edge at t = 1/ω.
@Suite struct FreeScrollModelTests {
    static let omega = 30.0
    static let rate = 0.998
    static let decay = -1000 * Double.log(0.998)

    static func rubberBand(_ excess: Double, viewport: Double = 1000) -> Double {
        excess * 0.55 * viewport / (abs(excess) * 0.55 + viewport)
    }

    /// The raw excess x with b(x) = b: x = d·b/(c·(d − b)).
    static func unstretched(_ b: Double, viewport: Double = 1000) -> Double {
        viewport * b / (0.55 * (viewport - b))
    }

    static func coast(from x0: Double, velocity v0: Double, after t: Double) -> Double {
        x0 + v0 * (1 - Double.exp(-decay * t)) / decay
    }

    static func spring(from x0: Double, velocity v0: Double, to target: Double, after t: Double) -> Double {
        let d = x0 - target
        return target + (d + (v0 + omega * d) * t) * Double.exp(-omega * t)
    }

    static func springVelocity(from x0: Double, velocity v0: Double, to target: Double, after t: Double) -> Double {
        let d = x0 - target
        return (v0 - omega * (v0 + omega * d) * t) * Double.exp(-omega * t)
    }

    /// At rest at `position` in the 1000 px viewport over 5000 px.
    static func model(at position: Double) -> FreeScrollModel {
        FreeScrollModel(viewportLength: 1000, contentLength: 5000, position: position)
    }

    /// Grabbed at `position` at t = 0 and dragged by `delta`.
    static func dragged(from position: Double, by delta: Double) -> FreeScrollModel {
        var model = model(at: position)
        model.grab(at: 0)
        model.drag(by: delta, at: 0)
        return model
    }

    /// Steps at 60 Hz from `t` until the model rests; returns the time it rested.
    static func settle(_ model: inout FreeScrollModel, from t: Double) -> Double {
        var now = t
        while model.isAnimating, now < t + 10 {
            now += 1.0 / 60
            model.settle(at: now)
        }
        return now
    }

    // MARK: Range

    @Test(arguments: [
        // content, viewport, requested position, resting position, maximum position
        (5000.0, 1000.0, 1200.0, 1200.0, 4000.0), (5000, 1000, -50, 0, 4000), (5000, 1000, 9000, 4000, 4000),
        (600, 1000, 300, 0, 0), (1000, 1000, 10, 0, 0),
    ])
    func restsInsideTheRange(content: Double, viewport: Double, requested: Double, resting: Double, maximum: Double) {
        let model = FreeScrollModel(viewportLength: viewport, contentLength: content, position: requested)
        #expect(model.maximumPosition == maximum)
        #expect(model.position(at: 3) == resting && model.velocity(at: 3) == 0)
        #expect(model.visibleRange(at: 3) == resting..<(resting + viewport))
        #expect(!model.isAnimating && !model.isDragging)
    }

    // MARK: Dragging

    /// Inside the range the content follows the finger; past either end the shown position is the
    /// end plus the rubber band of the excess.
    @Test(arguments: [
        // start, raw delta, shown position
        (1000.0, 300.0, 1300.0), (1000, -300, 700),
        (0, -500, -275_000.0 / 1275),  // b(500) = 500·550/(275 + 1000)
        (0, -2000, -1_100_000.0 / 2100),  // b(2000) = 2000·550/(1100 + 1000)
        (100, -300, -110_000.0 / 1110),  // 200 px past 0: b(200) = 200·550/(110 + 1000)
        (4000, 200, 4000 + 110_000.0 / 1110),
        (3900, 300, 4000 + 110_000.0 / 1110),
        (4000, 3000, 4000 + 1_650_000.0 / 2650),  // b(3000) = 3000·550/(1650 + 1000)
    ] as [(Double, Double, Double)])
    func aDragFollowsTheFingerAndRubberBandsPastTheEnds(start: Double, delta: Double, shown: Double) {
        let model = Self.dragged(from: start, by: delta)
        #expect(model.isDragging && !model.isAnimating)
        #expect(abs(model.position(at: 0) - shown) < 1e-9)
        #expect(model.velocity(at: 0) == 0)
    }

    @Test func aDragInStepsAddsUp() {
        var model = Self.dragged(from: 3800, by: 150)
        model.drag(by: 150, at: 0.1)
        model.drag(by: -50, at: 0.2)
        // Raw 4050: 50 px past the end.
        #expect(abs(model.position(at: 0.2) - (4000 + Self.rubberBand(50))) < 1e-9)
        model.grab(at: 0.3)
        #expect(abs(model.position(at: 0.3) - (4000 + Self.rubberBand(50))) < 1e-9)
    }

    // MARK: Momentum

    /// Released inside the range, the content coasts towards x0 + v0/k (UIScrollView's distance
    /// v0/1000 · r/(1 − r) sums the per-millisecond decay; the continuous integral v0/k is 0.1 %
    /// longer: (1 − r)/(−r·ln r) = 1.0010). It stops, by `settle`, where the speed falls under
    /// 20 px/s: at t = ln(|v0|/20)/k, (|v0| − 20)/k from x0.
    @Test(arguments: [(1000.0, 2000.0), (1000, -1500), (2500, 800)])
    func aReleaseCoastsAtTheNormalRate(x0: Double, v0: Double) {
        var model = Self.dragged(from: x0, by: 0)
        model.release(velocity: v0, at: 1)
        #expect(model.isAnimating && !model.isDragging)
        for t in [0, 0.05, 0.1, 0.5, 1, 2] {
            #expect(abs(model.position(at: 1 + t) - Self.coast(from: x0, velocity: v0, after: t)) < 1e-9, "t \(t)")
            #expect(abs(model.velocity(at: 1 + t) - v0 * Double.pow(Self.rate, 1000 * t)) < 1e-9, "t \(t)")
        }
        // e^(−k·30 s) ≈ 1e-26: the asymptote.
        let travel = model.position(at: 31) - x0
        #expect(abs(travel - v0 / Self.decay) < 1e-9)
        let discrete = v0 / 1000 * Self.rate / (1 - Self.rate)
        #expect(abs(travel / discrete - 1) < 0.0011)

        let stop = Double.log(abs(v0) / 20) / Self.decay
        model.settle(at: 1 + stop * (1 - 1e-9))
        #expect(model.isAnimating)
        model.settle(at: 1 + stop * (1 + 1e-9))
        #expect(!model.isAnimating)
        let rest = x0 + (v0 > 0 ? v0 - 20 : v0 + 20) / Self.decay
        #expect(abs(model.position(at: 50) - rest) < 1e-6)
        #expect(model.velocity(at: 50) == 0)
    }

    @Test func aStillReleaseInsideTheRangeRestsAtOnce() {
        var model = Self.dragged(from: 1000, by: 234)
        model.release(velocity: 0, at: 1)
        #expect(!model.isAnimating && !model.isDragging)
        #expect(model.position(at: 5) == 1234)
    }

    /// Released x0 = −b(400) = −220 000/1220 (or 4000 + b(400)) past an end, it springs back to
    /// the end: x(t) = (x0 + (v0 + ω·x0)·t)·e^(−ω·t) about it. Towards the end slower than ω·|x0|
    /// ≈ 5410 px/s it never crosses it; away, it goes further out first.
    @Test(arguments: [
        // start, raw delta, release velocity, end
        (0.0, -400.0, 0.0, 0.0), (0, -400, 1000, 0), (0, -400, -500, 0),
        (4000, 400, 0, 4000), (4000, 400, -2000, 4000), (4000, 400, 800, 4000),
    ])
    func aReleasePastAnEndSpringsBack(start: Double, delta: Double, velocity: Double, end: Double) {
        var model = Self.dragged(from: start, by: delta)
        let x0 = end + Self.rubberBand(delta)
        #expect(abs(model.position(at: 1) - x0) < 1e-9)
        model.release(velocity: velocity, at: 1)
        for k in 0...500 {
            let t = Double(k) / 1000
            let expected = Self.spring(from: x0, velocity: velocity, to: end, after: t)
            #expect(abs(model.position(at: 1 + t) - expected) < 1e-9, "t \(t)")
            #expect((model.position(at: 1 + t) - end) * (x0 - end) >= 0, "crossed the end at t \(t)")
        }
        let rested = Self.settle(&model, from: 1)
        #expect(model.position(at: rested) == end)
    }

    /// A coast from x0 at v0 reaches the end E at speed v = v0 − k·(E − x0), at
    /// t_E = ln(v0/v)/k; from there x = E + v·s·e^(−ω·s): at most v/(ω·e) past the end (at
    /// s = 1/ω), never back across it, resting on it exactly.
    @Test(arguments: [(3800.0, 3000.0, 4000.0), (3000, 6000, 4000), (200, -3000, 0), (1500, -9000, 0)])
    func momentumPastAnEndBouncesBackNoFurtherThanTheSpringAllows(x0: Double, v0: Double, end: Double) {
        var model = Self.dragged(from: x0, by: 0)
        model.release(velocity: v0, at: 1)
        let arrival = v0 - Self.decay * (end - x0)
        let reached = Double.log(v0 / arrival) / Self.decay
        let peak = abs(arrival) / (Self.omega * Double.exp(1))
        var furthest = 0.0
        for k in 0...10_000 {
            let t = Double(k) / 10_000
            let shown = model.position(at: 1 + t)
            if t < reached {
                #expect(abs(shown - Self.coast(from: x0, velocity: v0, after: t)) < 1e-6, "t \(t)")
            } else {
                let s = t - reached
                #expect(abs(shown - (end + arrival * s * Double.exp(-Self.omega * s))) < 1e-6, "t \(t)")
                #expect((shown - end) * v0 >= 0, "back across the end at t \(t)")
                furthest = max(furthest, abs(shown - end))
            }
        }
        #expect(furthest <= peak + 1e-9)
        // Sampled every 0.1 ms the peak is caught within 1e-4 of it.
        #expect(furthest >= peak * (1 - 1e-4))
        let rested = Self.settle(&model, from: 1)
        #expect(model.position(at: rested) == end)
    }

    // MARK: Grabbing

    /// A grab mid-coast holds the content where it is, and the drag goes on from there.
    @Test func aGrabMidCoastStopsWithoutAJump() {
        var model = Self.dragged(from: 1000, by: 0)
        model.release(velocity: 2000, at: 0)
        let held = Self.coast(from: 1000, velocity: 2000, after: 0.3)
        model.grab(at: 0.3)
        #expect(model.isDragging && !model.isAnimating)
        #expect(abs(model.position(at: 0.3) - held) < 1e-9)
        #expect(abs(model.position(at: 7) - held) < 1e-9 && model.velocity(at: 7) == 0)
        model.drag(by: 50, at: 0.4)
        #expect(abs(model.position(at: 0.4) - (held + 50)) < 1e-9)
    }

    /// Caught at the peak of a bounce (v/(ω·e) past the end), the content stays there; the
    /// finger's raw position is the one the rubber band shows there, so a further drag of −10 px
    /// shows 4000 + b(x − 10), x = d·b/(c·(d − b)).
    @Test func aGrabMidBounceHoldsTheStretch() {
        var model = Self.dragged(from: 3800, by: 0)
        model.release(velocity: 3000, at: 0)
        let arrival = 3000 - Self.decay * 200
        let peakTime = Double.log(3000 / arrival) / Self.decay + 1 / Self.omega
        let peak = arrival / (Self.omega * Double.exp(1))
        model.grab(at: peakTime)
        #expect(abs(model.position(at: peakTime) - (4000 + peak)) < 1e-6)
        #expect(abs(model.position(at: 9) - (4000 + peak)) < 1e-6)
        model.drag(by: -10, at: 9)
        #expect(abs(model.position(at: 9) - (4000 + Self.rubberBand(Self.unstretched(peak) - 10))) < 1e-6)
    }

    /// A wheel scroll from 1000 to 1600 is at 1600 − 600·2.5·e^(−1.5) at t = 0.05; a grab holds it.
    @Test func aGrabMidAnimationStopsWithoutAJump() {
        var model = Self.model(at: 1000)
        model.scroll(by: 600, at: 0)
        model.grab(at: 0.05)
        let held = 1600 - 600 * 2.5 * Double.exp(-1.5)
        #expect(model.isDragging && !model.isAnimating)
        #expect(abs(model.position(at: 2) - held) < 1e-9)
    }

    /// A trackpad's deltas grab without a separate call (here mid-coast), move the content 1:1
    /// and end with momentum from the velocity given.
    @Test func preciseDeltasGrabDragAndCoastOn() {
        var model = Self.dragged(from: 1000, by: 0)
        model.release(velocity: 2000, at: 0)
        let caught = Self.coast(from: 1000, velocity: 2000, after: 0.2)
        model.drag(by: 30, at: 0.2)
        #expect(model.isDragging)
        model.drag(by: 30, at: 0.21)
        #expect(abs(model.position(at: 0.21) - (caught + 60)) < 1e-9)
        model.release(velocity: 1500, at: 0.25)
        for t in [0, 0.1, 0.4] {
            #expect(abs(model.position(at: 0.25 + t) - Self.coast(from: caught + 60, velocity: 1500, after: t)) < 1e-9)
        }
    }

    @Test func releaseNeedsADragAndAGrabWhileDraggingChangesNothing() {
        var model = Self.model(at: 1000)
        model.release(velocity: 3000, at: 0)
        #expect(!model.isAnimating && model.position(at: 1) == 1000)
        // Raw 4050: a second grab keeps the finger's raw position, not the stretched one.
        model = Self.dragged(from: 3980, by: 70)
        model.grab(at: 1)
        model.drag(by: -100, at: 1)
        #expect(abs(model.position(at: 1) - 3950) < 1e-9)
    }

    // MARK: Animated scrolls

    /// Notches 0.05 s apart: the first spring from rest at 1000 to 1060 is at
    /// x = 1060 − 60·2.5·e^(−1.5) moving at 60·900·0.05·e^(−1.5) when the second sets the target
    /// to 1120; the spring carries on from there with that velocity (under ω·|D|, uncapped).
    @Test func wheelNotchesCompose() {
        var model = Self.model(at: 1000)
        model.scroll(by: 60, at: 0)
        #expect(model.isAnimating)
        let x = 1060 - 60 * 2.5 * Double.exp(-1.5), v = 60 * 900 * 0.05 * Double.exp(-1.5)
        #expect(abs(model.position(at: 0.05) - x) < 1e-9 && abs(model.velocity(at: 0.05) - v) < 1e-9)
        model.scroll(by: 60, at: 0.05)
        for t in [0, 0.01, 0.05, 0.1, 0.3] {
            #expect(abs(model.position(at: 0.05 + t) - Self.spring(from: x, velocity: v, to: 1120, after: t)) < 1e-9, "t \(t)")
        }
        let rested = Self.settle(&model, from: 0.05)
        #expect(model.position(at: rested) == 1120)
    }

    @Test(arguments: [
        // start, notches (each at 0.02 s after the last), resting position
        (1000.0, [60.0, 60, 60], 1180.0), (1000, [60, -60], 1000), (1000, [-60, -60, 60], 940),
        // Clamped to the range; a notch past an end at rest there does nothing.
        (3950, [60, 60], 4000), (30, [-60, -60, 60], 60), (4000, [60], 4000), (0, [-60], 0),
    ])
    func notchesAddUpWithinTheRange(start: Double, notches: [Double], resting: Double) {
        var model = Self.model(at: start)
        for (i, notch) in notches.enumerated() { model.scroll(by: notch, at: 0.02 * Double(i)) }
        let rested = Self.settle(&model, from: 0.02 * Double(notches.count - 1))
        #expect(model.position(at: rested) == resting)
    }

    /// A notch during a 3000 px/s coast: at t = 0.1 the coast moves at 3000·e^(−0.1k) ≈ 2456 px/s,
    /// faster than ω·60 = 1800 towards a target 60 px ahead: capped there, the spring is
    /// T − 60·e^(−ω·t) and never passes T.
    @Test func aNotchDuringACoastNeverOvershoots() {
        var model = Self.dragged(from: 1000, by: 0)
        model.release(velocity: 3000, at: 0)
        let x = Self.coast(from: 1000, velocity: 3000, after: 0.1)
        model.scroll(by: 60, at: 0.1)
        for k in 0...300 {
            let t = Double(k) / 1000
            #expect(abs(model.position(at: 0.1 + t) - (x + 60 - 60 * Double.exp(-Self.omega * t))) < 1e-9, "t \(t)")
        }
    }

    /// Home, End and any position: a spring from rest to the target moved into the range.
    @Test(arguments: [(2500.0, 0.0, 0.0), (2500, 4000, 4000), (2500, 1e9, 4000), (2500, -5, 0), (100, 1200, 1200)])
    func scrollToAPosition(start: Double, requested: Double, target: Double) {
        var model = Self.model(at: start)
        model.scroll(to: requested, at: 2)
        for t in [0, 0.03, 0.1] {
            #expect(abs(model.position(at: 2 + t) - Self.spring(from: start, velocity: 0, to: target, after: t)) < 1e-9)
        }
        let rested = Self.settle(&model, from: 2)
        #expect(model.position(at: rested) == target)
    }

    /// A page is 1000 − overlap, the overlap clamped into [0, 500].
    @Test(arguments: [
        // start, pages, overlap, target
        (0.0, 1, 200.0, 800.0), (1000, -1, 200, 200), (500, -1, 200, 0), (3500, 1, 200, 4000),
        (1000, 1, 900, 1500), (1000, 1, -100, 2000), (1000, 1, 0, 2000),
    ] as [(Double, Int, Double, Double)])
    func pageUpAndDown(start: Double, pages: Int, overlap: Double, target: Double) {
        var model = Self.model(at: start)
        model.scroll(pages: pages, overlap: overlap, at: 0)
        for t in [0, 0.05] {
            #expect(abs(model.position(at: t) - Self.spring(from: start, velocity: 0, to: target, after: t)) < 1e-9)
        }
        let rested = Self.settle(&model, from: 0)
        #expect(model.position(at: rested) == target)
    }

    @Test func pagesComposeLikeNotches() {
        var model = Self.model(at: 0)
        model.scroll(pages: 1, overlap: 200, at: 0)
        model.scroll(pages: 1, overlap: 200, at: 0.02)
        let rested = Self.settle(&model, from: 0.02)
        #expect(model.position(at: rested) == 1600)
    }

    /// From 1000 to 2000 at rest, the animation is within 0.5 px once 1000·(1 + 30t)·e^(−30t)
    /// < 0.5 (its speed 1000·900·t·e^(−30t) is under 20 px/s a little earlier, at t ≈ 0.32 s);
    /// only `settle` ends it, exactly on the target.
    @Test func settleEndsAnAnimationExactlyOnItsTargetOnceDone() {
        var model = Self.model(at: 1000)
        model.scroll(to: 2000, at: 0)
        var low = 0.0, high = 2.0
        for _ in 0..<100 {
            let t = (low + high) / 2
            if 1000 * (1 + Self.omega * t) * Double.exp(-Self.omega * t) < 0.5 { high = t } else { low = t }
        }
        model.settle(at: high * (1 - 1e-6))
        #expect(model.isAnimating && model.position(at: high * (1 - 1e-6)) != 2000)
        model.settle(at: high * (1 + 1e-6))
        #expect(!model.isAnimating)
        #expect(model.position(at: high) == 2000 && model.velocity(at: high) == 0)
    }

    @Test func animatedScrollsWaitForTheFinger() {
        var model = Self.dragged(from: 1000, by: 0)
        model.scroll(by: 60, at: 0)
        model.scroll(to: 0, at: 0)
        model.scroll(pages: 1, overlap: 0, at: 0)
        model.scroll(toReveal: 3000..<3100, at: 0)
        model.scroll(toReveal: 3000..<3100, animated: false, at: 0)
        #expect(model.isDragging && model.position(at: 1) == 1000)
    }

    // MARK: Reveal

    /// The viewport shows [1000, 2000). Least motion: a span that fits ends up just inside the
    /// nearer edge; a longer one fills the viewport from its nearer end (CSSOM View "nearest").
    @Test(arguments: [
        // span, resting position
        (500.0..<700.0, 500.0),  // above: its top at the top
        (900..<1100, 900),  // partly above
        (2100..<2300, 1300),  // below: its bottom at the bottom
        (1900..<2050, 1050),  // partly below
        (1200..<1400, 1000), (1000..<2000, 1000),  // already in view
        (800..<2500, 1000),  // longer and covering the viewport: nothing to do
        (1500..<3000, 1500),  // longer, starting in view: its top at the top
        (200..<1500, 500),  // longer, ending in view: its bottom at the bottom
        (2500..<4000, 2500), (0..<1200, 200),
        (4900..<5100, 4000), (-100..<50, 0),  // clamped to the range
    ] as [(Range<Double>, Double)])
    func revealMovesTheLeast(span: Range<Double>, resting: Double) {
        var model = Self.model(at: 1000)
        model.scroll(toReveal: span, at: 0)
        #expect(model.isAnimating == (resting != 1000))
        for t in [0, 0.04, 0.2] {
            #expect(abs(model.position(at: t) - Self.spring(from: 1000, velocity: 0, to: resting, after: t)) < 1e-9)
        }
        let rested = Self.settle(&model, from: 0)
        #expect(model.position(at: rested) == resting)

        var immediate = Self.model(at: 1000)
        immediate.scroll(toReveal: span, animated: false, at: 0)
        #expect(!immediate.isAnimating && immediate.position(at: 0) == resting)
    }

    /// Mid-animation towards 1600 the reveal starts from that target: [2100, 2300) will be in
    /// view there, so the animation runs on untouched; [2700, 2800) moves the target to 1800.
    @Test func revealStartsFromTheTargetOfTheAnimationInProgress() {
        var model = Self.model(at: 1000)
        model.scroll(by: 600, at: 0)
        model.scroll(toReveal: 2100..<2300, at: 0.05)
        for t in [0.05, 0.1, 0.2] {
            #expect(abs(model.position(at: t) - Self.spring(from: 1000, velocity: 0, to: 1600, after: t)) < 1e-9)
        }
        let x = 1600 - 600 * 2.5 * Double.exp(-1.5), v = 600 * 900 * 0.05 * Double.exp(-1.5)
        model.scroll(toReveal: 2700..<2800, at: 0.05)
        for t in [0, 0.05, 0.2] {
            #expect(abs(model.position(at: 0.05 + t) - Self.spring(from: x, velocity: v, to: 1800, after: t)) < 1e-9)
        }
    }

    /// A span in view mid-coast leaves the coast alone; one out of view turns it into an animated
    /// scroll from the coast's position and velocity (2000·e^(−0.1k) at t = 0.1, uncapped: it points
    /// away from the target above).
    @Test func revealDuringACoast() {
        var model = Self.dragged(from: 1000, by: 0)
        model.release(velocity: 2000, at: 0)
        let x = Self.coast(from: 1000, velocity: 2000, after: 0.1), v = 2000 * Double.exp(-0.1 * Self.decay)
        model.scroll(toReveal: (x + 100)..<(x + 200), at: 0.1)
        for t in [0.1, 0.3, 1] {
            #expect(abs(model.position(at: t) - Self.coast(from: 1000, velocity: 2000, after: t)) < 1e-9, "t \(t)")
        }
        model.scroll(toReveal: 500..<600, at: 0.1)
        for t in [0, 0.05, 0.2] {
            #expect(abs(model.position(at: 0.1 + t) - Self.spring(from: x, velocity: v, to: 500, after: t)) < 1e-9, "t \(t)")
        }
    }

    // MARK: Resize

    /// A grid of 250 px rows, 100 items. In 4 columns (6250 px) item 37 is in row 9 at 2250, and at
    /// position 2300 it is the top item, 50 px scrolled off. In 5 columns (5000 px) its row 7 is
    /// at 1750: anchored at −50 in a 1250 px viewport the position is 1800.
    @Test func aResizeKeepsTheTopItem() {
        var model = FreeScrollModel(viewportLength: 1000, contentLength: 6250, position: 2300)
        model.resize(
            viewportLength: 1250, contentLength: 5000,
            anchor: FreeScrollModel.Anchor(contentPosition: 1750, viewportPosition: -50), at: 1)
        #expect(model.viewportLength == 1250 && model.contentLength == 5000 && model.maximumPosition == 3750)
        #expect(model.position(at: 1) == 1800 && !model.isAnimating)
    }

    @Test(arguments: [
        // position, new content length, anchor (content, viewport), new position
        (1000.0, 5500.0, (1500.0, 0.0), 1500.0),  // 500 px of items inserted above
        (1000, 5000, (1200, 400), 800),  // a content point kept 400 px down the viewport
        (1000, 5000, (100, 400), 0), (1000, 5000, (4900, 0), 4000),  // clamped
        (3500, 3000, nil, 2000),  // items removed below: clamped to the new end
        (3500, 800, nil, 0),  // now shorter than the viewport
        (1000, 8000, nil, 1000),  // items added below
    ] as [(Double, Double, (Double, Double)?, Double)])
    func aResizeAtRestAnchors(position: Double, content: Double, anchor: (Double, Double)?, resting: Double) {
        var model = Self.model(at: position)
        model.resize(
            viewportLength: 1000, contentLength: content,
            anchor: anchor.map { FreeScrollModel.Anchor(contentPosition: $0.0, viewportPosition: $0.1) }, at: 1)
        #expect(model.position(at: 1) == resting && !model.isAnimating)
    }

    /// Dragged to 1100, anchored 400 px further (1500): the finger carries on from there. Dragged
    /// to 3000 when the content shrinks to 3500 (end 2500): 500 px past the new end, stretched.
    @Test func aResizeMidDragKeepsTheFinger() {
        var model = Self.dragged(from: 1000, by: 100)
        model.resize(viewportLength: 1000, contentLength: 5000,
            anchor: FreeScrollModel.Anchor(contentPosition: 1500, viewportPosition: 0), at: 0.5)
        #expect(model.isDragging && model.position(at: 0.5) == 1500)
        model.drag(by: 10, at: 0.6)
        #expect(model.position(at: 0.6) == 1510)

        var shrunk = Self.dragged(from: 3000, by: 0)
        shrunk.resize(viewportLength: 1000, contentLength: 3500, at: 0.5)
        #expect(abs(shrunk.position(at: 0.5) - (2500 + Self.rubberBand(500))) < 1e-9)
        shrunk.release(velocity: 0, at: 1)
        let rested = Self.settle(&shrunk, from: 1)
        #expect(shrunk.position(at: rested) == 2500)
    }

    /// Coasting from 1000 at 2000 px/s, at t = 0.2 it is at x = coast(0.2) moving at
    /// 2000·e^(−0.2k); 500 px inserted above: the coast goes on from x + 500 at that speed.
    @Test func aResizeMidCoastCarriesTheMotion() {
        var model = Self.dragged(from: 1000, by: 0)
        model.release(velocity: 2000, at: 0)
        let x = Self.coast(from: 1000, velocity: 2000, after: 0.2), v = 2000 * Double.exp(-0.2 * Self.decay)
        model.resize(viewportLength: 1000, contentLength: 5500,
            anchor: FreeScrollModel.Anchor(contentPosition: x + 500, viewportPosition: 0), at: 0.2)
        #expect(model.isAnimating)
        for t in [0, 0.1, 0.5, 1] {
            #expect(abs(model.position(at: 0.2 + t) - Self.coast(from: x + 500, velocity: v, after: t)) < 1e-9, "t \(t)")
        }
    }

    /// Animating 1000 → 1600 (as in the grab test at t = 0.05), 300 px inserted above: from x + 300
    /// with the same velocity towards 1900.
    @Test func aResizeMidAnimationMovesTheTarget() {
        var model = Self.model(at: 1000)
        model.scroll(by: 600, at: 0)
        let x = 1600 - 600 * 2.5 * Double.exp(-1.5), v = 600 * 900 * 0.05 * Double.exp(-1.5)
        model.resize(viewportLength: 1000, contentLength: 5300,
            anchor: FreeScrollModel.Anchor(contentPosition: x + 300, viewportPosition: 0), at: 0.05)
        for t in [0, 0.05, 0.2] {
            #expect(abs(model.position(at: 0.05 + t) - Self.spring(from: x + 300, velocity: v, to: 1900, after: t)) < 1e-9)
        }
        let rested = Self.settle(&model, from: 0.05)
        #expect(model.position(at: rested) == 1900)
    }

    // MARK: Content shorter than the viewport

    /// 600 px in 1000: pinned at 0, rubber-banding both ways (b(300) = 300·550/(165 + 1000)),
    /// springing back, and bouncing on 0 at v·t·e^(−ω·t) when flung; scrolls have nowhere to go.
    @Test func shortContentIsPinnedAtZero() {
        let short = FreeScrollModel(viewportLength: 1000, contentLength: 600)
        for delta in [300.0, -300] {
            var model = short
            model.drag(by: delta, at: 0)
            let stretched = delta / 300 * 165_000 / 1165
            #expect(abs(model.position(at: 0) - stretched) < 1e-9)
            model.release(velocity: 0, at: 0)
            for t in [0, 0.05, 0.2] {
                #expect(abs(model.position(at: t) - Self.spring(from: stretched, velocity: 0, to: 0, after: t)) < 1e-9)
            }
            let rested = Self.settle(&model, from: 0)
            #expect(model.position(at: rested) == 0)
        }
        var flung = short
        flung.grab(at: 0)
        flung.release(velocity: 2000, at: 0)
        for t in [0, 0.01, 1 / Self.omega, 0.1] {
            #expect(abs(flung.position(at: t) - 2000 * t * Double.exp(-Self.omega * t)) < 1e-9)
        }
        let rested = Self.settle(&flung, from: 0)
        #expect(flung.position(at: rested) == 0)

        var scrolled = short
        scrolled.scroll(by: 60, at: 0)
        scrolled.scroll(pages: 1, overlap: 0, at: 0)
        scrolled.scroll(to: 400, at: 0)
        scrolled.scroll(toReveal: 500..<600, at: 0)
        #expect(!scrolled.isAnimating && scrolled.position(at: 0) == 0)
        #expect(scrolled.visibleRange(at: 0) == 0..<1000)
    }
}
