import RiffleGeometry
import Testing
@testable import RifflePhysics

struct VelocityTrackerTests {
    /// Samples of `motion` every 8 ms (a 125 Hz mouse) with each timestamp jittered by up to
    /// ±3 ms, from t = 0 to about `duration`, positions taken at the jittered times.
    static func samples(seed: UInt64, duration: Double, motion: (Double) -> Point) -> [VelocityTracker.Sample] {
        var generator = SeededGenerator(seed: seed)
        return sampleTimes(until: duration, step: 0.008).map { nominal in
            let t = nominal + Double.random(in: -0.003...0.003, using: &generator)
            return VelocityTracker.Sample(time: t, position: motion(t))
        }
    }

    static func tracker(_ samples: [VelocityTracker.Sample]) -> VelocityTracker {
        var tracker = VelocityTracker()
        for s in samples { tracker.add(time: s.time, position: s.position) }
        return tracker
    }

    static let seeds: [UInt64] = [1, 42, 0xC0FFEE, 0xDEAD_BEEF, 20_250_101]

    @Test("recovers a constant velocity", arguments: seeds, [(1200.0, -300.0), (-4000.0, 0.0), (15.0, 2.5)])
    func constant(seed: UInt64, velocity: (Double, Double)) {
        let v = Point(x: velocity.0, y: velocity.1)
        let samples = Self.samples(seed: seed, duration: 0.3) { Point(x: 40, y: 700) + v * $0 }
        let tracker = Self.tracker(samples)
        let release = samples.map(\.time).max()! + 0.004
        let estimate = tracker.velocity(at: release)
        #expect(isClose(estimate.x, v.x, absolute: 1e-6, relative: 1e-6), "seed \(seed)")
        #expect(isClose(estimate.y, v.y, absolute: 1e-6, relative: 1e-6), "seed \(seed)")
    }

    @Test("recovers the final velocity of a constant acceleration", arguments: seeds)
    func accelerating(seed: UInt64) {
        let v0 = Point(x: 200, y: -100), a = Point(x: 6000, y: -2500)
        let samples = Self.samples(seed: seed, duration: 0.25) { t in Point(x: 10, y: 10) + v0 * t + a * (t * t / 2) }
        let tracker = Self.tracker(samples)
        let last = samples.map(\.time).max()!
        let expected = v0 + a * last
        let estimate = tracker.velocity(at: last)
        #expect(isClose(estimate.x, expected.x, absolute: 1e-6, relative: 1e-6), "seed \(seed)")
        #expect(isClose(estimate.y, expected.y, absolute: 1e-6, relative: 1e-6), "seed \(seed)")
    }

    // Core X events report whole pixels: rounding adds up to ±0.5 px of noise per sample. 3 %
    // of 1500 px/s is 45 px/s, several standard deviations of the quadratic fit's slope noise.
    @Test("whole-pixel positions still give the velocity within 3 %", arguments: seeds)
    func quantized(seed: UInt64) {
        let samples = Self.samples(seed: seed, duration: 0.3) { t in
            Point(x: (1500 * t).rounded(), y: (-900 * t).rounded())
        }
        let estimate = Self.tracker(samples).velocity(at: samples.map(\.time).max()!)
        #expect(isClose(estimate.x, 1500, relative: 0.03), "seed \(seed): \(estimate)")
        #expect(isClose(estimate.y, -900, relative: 0.03), "seed \(seed): \(estimate)")
    }

    @Test("zero once the pointer has been still for more than 40 ms", arguments: seeds)
    func pause(seed: UInt64) {
        let samples = Self.samples(seed: seed, duration: 0.2) { Point(x: 3000 * $0, y: 0) }
        let tracker = Self.tracker(samples)
        let last = samples.map(\.time).max()!
        #expect(tracker.velocity(at: last + 0.039).x > 2900)
        #expect(tracker.velocity(at: last + 0.041) == .zero)
        #expect(tracker.velocity(at: last + 5) == .zero)
    }

    @Test("a pause within the stroke cuts the fit: only the motion after it counts")
    func pauseWithin() {
        var tracker = VelocityTracker()
        for i in 0..<6 { tracker.add(time: Double(i) * 0.008, position: Point(x: 5000 * Double(i) * 0.008, y: 0)) }
        // Still for 50 ms, then moving back the other way for 24 ms.
        let resume = 0.040 + 0.050
        for i in 0...3 {
            let t = resume + Double(i) * 0.008
            tracker.add(time: t, position: Point(x: 200 - 800 * (t - resume), y: 0))
        }
        #expect(isClose(tracker.velocity(at: resume + 0.024).x, -800, absolute: 1e-6))
    }

    @Test("zero with fewer than two samples; two give the difference quotient")
    func fewSamples() {
        var tracker = VelocityTracker()
        #expect(tracker.velocity(at: 0) == .zero)
        tracker.add(time: 1, position: Point(x: 5, y: 5))
        #expect(tracker.velocity(at: 1) == .zero)
        tracker.add(time: 1.01, position: Point(x: 15, y: 0))
        let v = tracker.velocity(at: 1.01)
        #expect(isClose(v.x, 1000, relative: 1e-9) && isClose(v.y, -500, relative: 1e-9))
        tracker.reset()
        #expect(tracker.samples.isEmpty)
    }

    @Test("out-of-order samples are sorted; old ones are dropped", arguments: seeds)
    func ordering(seed: UInt64) {
        var samples = Self.samples(seed: seed, duration: 0.5) { Point(x: 700 * $0, y: 20 * $0) }
        var generator = SeededGenerator(seed: seed)
        samples.shuffle(using: &generator)
        let tracker = Self.tracker(samples)
        let times = tracker.samples.map(\.time)
        #expect(times == times.sorted(), "seed \(seed)")
        #expect(times.last! - times.first! <= VelocityTracker.horizon)
        let v = tracker.velocity(at: times.last!)
        #expect(isClose(v.x, 700, relative: 1e-6) && isClose(v.y, 20, relative: 1e-6), "seed \(seed)")
    }

    /// Slope of the least-squares line through (t, x), by its closed form Σ(t − t̄)(x − x̄) / Σ(t − t̄)².
    static func lineSlope(_ samples: [(Double, Double)]) -> Double {
        let n = Double(samples.count)
        let tMean = samples.map(\.0).reduce(0, +) / n, xMean = samples.map(\.1).reduce(0, +) / n
        let covariance = samples.map { ($0.0 - tMean) * ($0.1 - xMean) }.reduce(0, +)
        let variance = samples.map { ($0.0 - tMean) * ($0.0 - tMean) }.reduce(0, +)
        return covariance / variance
    }

    // XTest (xdotool) and low-rate devices: the first move lands 0.5 ms after the press, then one
    // every 16 ms. The quadratic through press + 2 moves has slope −90 814 px/s at the end: a flick
    // to the right paged left. It is raised to the latest speed, 50 px / 16 ms = 3125 px/s (below
    // the line's 4683 px/s).
    @Test("a press and two quick moves give the latest speed, not a backwards parabola")
    func twoQuickMoves() {
        let samples: [(Double, Double)] = [(0, 0), (0.0005, 50), (0.0165, 100)]
        var tracker = VelocityTracker()
        for (t, x) in samples { tracker.add(time: t, position: Point(x: x, y: 0)) }
        #expect(isClose(Self.lineSlope(samples), 4683.065, absolute: 0.01))
        #expect(isClose(tracker.velocity(at: 0.0165).x, 3125, relative: 1e-9))
    }

    // A busy machine: the fourth move came 35 ms after the third. The parabola ends at 49 px/s,
    // though the pointer covered 50 px in those 35 ms: raised to 50/0.035 = 1428.6 px/s.
    @Test("one late event does not read as the pointer stopping")
    func aLateEvent() {
        let samples: [(Double, Double)] = [(0, 0), (0, 50), (0.016, 100), (0.032, 150), (0.067, 200)]
        var tracker = VelocityTracker()
        for (t, x) in samples { tracker.add(time: t, position: Point(x: x, y: 0)) }
        #expect(isClose(tracker.velocity(at: 0.083).x, 50 / 0.035, relative: 1e-9))
    }

    @Test("three quick moves: forwards, at most twice the line's slope")
    func threeQuickMoves() {
        let samples: [(Double, Double)] = [(0, 0), (0.0005, 50), (0.0165, 100), (0.0325, 150)]
        var tracker = VelocityTracker()
        for (t, x) in samples { tracker.add(time: t, position: Point(x: x, y: 0)) }
        let v = tracker.velocity(at: 0.0325).x
        // Between the latest speed 50/0.016 = 3125 px/s and twice the line's.
        #expect(v >= 3125 - 1e-9 && v <= 2 * Self.lineSlope(samples), "\(v)")
    }

    // Still for 30 ms, then a 10 px step in the last millisecond: the parabola's end slope is far
    // steeper than anything the samples show on average, and is capped at twice the line's.
    @Test("a quadratic steeper than twice the line's slope is capped there")
    func cappedAtTwiceTheLine() {
        let samples: [(Double, Double)] = [(0, 0), (0.010, 0), (0.020, 0), (0.030, 0), (0.031, 10)]
        var tracker = VelocityTracker()
        for (t, x) in samples { tracker.add(time: t, position: Point(x: x, y: 0)) }
        #expect(isClose(tracker.velocity(at: 0.031).x, 2 * Self.lineSlope(samples), relative: 1e-9))
    }

    @Test("samples moving one way never give a velocity the other way", arguments: seeds)
    func neverBackwards(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        for trial in 0..<200 {
            var tracker = VelocityTracker()
            var t = 0.0, x = 0.0
            let direction: Double = trial.isMultiple(of: 2) ? 1 : -1
            for _ in 0..<Int.random(in: 2...8, using: &generator) {
                tracker.add(time: t, position: Point(x: x, y: 0))
                t += Double.random(in: 0.0002...0.030, using: &generator)
                x += direction * Double.random(in: 0...80, using: &generator)
            }
            let last = tracker.samples.last!
            let v = tracker.velocity(at: last.time).x
            #expect(v * direction >= 0, "seed \(seed), trial \(trial): \(tracker.samples) gave \(v)")
        }
    }
}
