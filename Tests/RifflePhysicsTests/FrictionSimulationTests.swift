import RealModule
import Testing
@testable import RifflePhysics

struct FrictionSimulationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var r: Double, x0: Double, v0: Double, t: Double
        var rate: DecelerationRate { DecelerationRate(perMillisecond: r) }
        var testDescription: String { "r \(r) x0 \(x0) v0 \(v0) t \(t)" }
    }

    static let cases: [Case] = [
        Case(r: 0.998, x0: 0, v0: 1000, t: 0),
        Case(r: 0.998, x0: 0, v0: 1000, t: 0.016),
        Case(r: 0.998, x0: 120, v0: -2500, t: 0.1),
        Case(r: 0.998, x0: -40, v0: 4000, t: 0.5),
        Case(r: 0.998, x0: 0, v0: 800, t: 2),
        Case(r: 0.99, x0: 0, v0: 3000, t: 0.05),
        Case(r: 0.99, x0: 10, v0: -600, t: 0.3),
        Case(r: 0.99, x0: 0, v0: 5000, t: 1),
        Case(r: 0.998, x0: 7, v0: 0, t: 0.4),
    ]

    @Test("position and velocity follow x0 + v0·(r^(1000t) − 1)/(1000 ln r) and v0·r^(1000t)", arguments: cases)
    func formula(_ c: Case) {
        let s = FrictionSimulation(rate: c.rate, position: c.x0, velocity: c.v0)
        let decay = Double.pow(c.r, 1000 * c.t)
        let x = c.x0 + c.v0 * (decay - 1) / (1000 * Double.log(c.r))
        let v = c.v0 * decay
        #expect(isClose(s.position(at: c.t), x, absolute: 1e-9, relative: 1e-10))
        #expect(isClose(s.velocity(at: c.t), v, absolute: 1e-9, relative: 1e-10))
    }

    @Test("velocity is the derivative of position", arguments: cases)
    func derivative(_ c: Case) {
        let s = FrictionSimulation(rate: c.rate, position: c.x0, velocity: c.v0)
        let h = 1e-6
        let slope = (s.position(at: c.t + h) - s.position(at: c.t + 2 * h)) / -h
        #expect(isClose(slope, s.velocity(at: c.t + 1.5 * h), absolute: 1e-4, relative: 1e-5))
    }

    // docs/physics.md, "Deceleration": distance to rest v0/1000 · r/(1 − r) ≈ v0 · 0.499 s
    // (.normal), v0 · 0.099 s (.fast), the discrete per-ms sum; the continuous 1/k is 0.4995 s and
    // 0.0995 s, so the two agree within 0.1 % and 0.5 %: 1 % is the tolerance.
    @Test("final position matches the discrete distance to rest", arguments: [
        (0.998, 1000.0, 0.499), (0.998, -3000.0, 0.499), (0.99, 1000.0, 0.099), (0.99, -4000.0, 0.099),
    ])
    func distanceToRest(r: Double, v0: Double, secondsPerVelocity: Double) {
        let s = FrictionSimulation(rate: DecelerationRate(perMillisecond: r), position: 50, velocity: v0)
        let discrete = v0 / 1000 * r / (1 - r)
        #expect(isClose(s.finalPosition - 50, v0 * secondsPerVelocity, relative: 0.01))
        #expect(isClose(s.finalPosition - 50, discrete, relative: 0.01))
        #expect(isClose(s.position(at: 60), s.finalPosition, absolute: 1e-6))
    }

    @Test("named rates")
    func namedRates() {
        #expect(DecelerationRate.normal.perMillisecond == 0.998)
        #expect(DecelerationRate.fast.perMillisecond == 0.99)
        // Flutter's fling drag: 0.135 per second.
        #expect(isClose(DecelerationRate.normal.perSecond, 0.135, relative: 0.001))
    }

    @Test("time(toReachPosition:) inverts position(at:)", arguments: [0.01, 0.1, 0.25, 0.8, 1.7])
    func timeToReach(t: Double) {
        for (r, v0) in [(0.998, 2000.0), (0.99, -1500.0)] {
            let s = FrictionSimulation(rate: DecelerationRate(perMillisecond: r), position: 30, velocity: v0)
            let found = s.time(toReachPosition: s.position(at: t))
            #expect(found.map { isClose($0, t, absolute: 1e-9, relative: 1e-7) } == true, "r \(r) t \(t)")
        }
    }

    @Test("time(whenVelocityIs:) inverts velocity(at:)", arguments: [0.0, 0.05, 0.3, 1.2])
    func timeForVelocity(t: Double) {
        let s = FrictionSimulation(rate: .normal, position: 0, velocity: -2400)
        let found = s.time(whenVelocityIs: s.velocity(at: t))
        #expect(found.map { isClose($0, t, absolute: 1e-9, relative: 1e-9) } == true)
    }

    @Test("unreachable positions and velocities answer nil")
    func unreachable() {
        let s = FrictionSimulation(rate: .normal, position: 0, velocity: 1000)
        #expect(s.time(toReachPosition: -1) == nil)
        #expect(s.time(toReachPosition: s.finalPosition + 1e-9) == nil)
        #expect(s.time(toReachPosition: s.finalPosition + 10) == nil)
        #expect(s.time(toReachPosition: 0) == 0)
        #expect(s.time(whenVelocityIs: 2000) == nil)
        #expect(s.time(whenVelocityIs: -10) == nil)
        #expect(s.time(whenVelocityIs: 0) == nil)
        let still = FrictionSimulation(rate: .normal, position: 3, velocity: 0)
        #expect(still.time(toReachPosition: 4) == nil)
        #expect(still.isDone(at: 0))
    }

    @Test("done exactly when |v| falls below the velocity tolerance", arguments: [200.0, -1500.0, 9000.0])
    func done(v0: Double) {
        let s = FrictionSimulation(rate: .normal, position: 0, velocity: v0)
        let rest = Double.log(abs(v0) / Tolerance.pixels.velocity) / -(1000 * Double.log(0.998))
        #expect(isClose(s.timeToRest, rest, relative: 1e-12))
        #expect(!s.isDone(at: rest - 1e-6))
        #expect(s.isDone(at: rest + 1e-6))
        #expect(s.isDone(at: rest + 10))
    }
}
