import RealModule
import Testing
@testable import RifflePhysics

struct SpringSimulationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var ratio: Double, omega: Double, x0: Double, v0: Double, target: Double, t: Double
        var spring: SpringDescription { SpringDescription(dampingRatio: ratio, naturalFrequency: omega) }
        var testDescription: String { "ζ \(ratio) ω \(omega) x0 \(x0) v0 \(v0) → \(target) at t \(t)" }
    }

    static let cases: [Case] = [
        Case(ratio: 1, omega: 30, x0: 1000, v0: 0, target: 0, t: 0),
        Case(ratio: 1, omega: 30, x0: 1000, v0: 0, target: 0, t: 0.05),
        Case(ratio: 1, omega: 30, x0: -200, v0: 3000, target: 100, t: 0.12),
        Case(ratio: 1, omega: 40, x0: 3, v0: -10, target: 2, t: 0.2),
        Case(ratio: 0.5, omega: 30, x0: 500, v0: 0, target: 0, t: 0.07),
        Case(ratio: 0.2, omega: 20, x0: 0, v0: 1000, target: 0, t: 0.3),
        Case(ratio: 2, omega: 30, x0: 400, v0: -100, target: 50, t: 0.1),
        Case(ratio: 3.5, omega: 15, x0: -80, v0: 900, target: 0, t: 0.45),
    ]

    @Test("closed forms agree with a numerical integration of m·x'' + c·x' + k·x = 0", arguments: cases)
    func againstIntegration(_ c: Case) {
        let s = SpringSimulation(spring: c.spring, position: c.x0, velocity: c.v0, target: c.target)
        let reference = integrateSpring(c.spring, x0: c.x0, v0: c.v0, target: c.target, until: c.t)
        #expect(isClose(s.position(at: c.t), reference.x, absolute: 1e-6, relative: 1e-6))
        #expect(isClose(s.velocity(at: c.t), reference.v, absolute: 1e-5, relative: 1e-6))
    }

    @Test("critically damped: x(t) = target + (x0 + (v0 + ω·x0)·t)·e^(−ω·t)", arguments: cases.filter { $0.ratio == 1 })
    func criticalFormula(_ c: Case) {
        let s = SpringSimulation(spring: c.spring, position: c.x0, velocity: c.v0, target: c.target)
        let d = c.x0 - c.target, w = c.omega
        let e = Double.exp(-w * c.t)
        #expect(isClose(s.position(at: c.t), c.target + (d + (c.v0 + w * d) * c.t) * e, relative: 1e-12))
        #expect(isClose(s.velocity(at: c.t), (c.v0 - w * (c.v0 + w * d) * c.t) * e, absolute: 1e-9, relative: 1e-12))
    }

    // Page widths up to a 4K screen; velocities at rest, away from the target, and towards it up
    // to ω·|D| (faster than that a critically damped spring crosses the target once).
    @Test("the page-snap spring settles within 0.5 px before 0.5 s and never overshoots", arguments: [
        (4000.0, 0.0), (1000.0, 0.0), (1000.0, -10_000.0), (1000.0, -30_000.0), (300.0, -5000.0),
        (-1920.0, 0.0), (-1920.0, 20_000.0), (-50.0, 1500.0), (600.0, 3000.0), (-600.0, -3000.0), (1.5, 0.0),
    ])
    func criticalSettles(displacement: Double, velocity: Double) {
        let s = SpringSimulation(spring: .pageSnap, position: 200 + displacement, velocity: velocity, target: 200)
        #expect(s.firstCrossingTime == nil)
        var settled: Double?
        for t in sampleTimes(until: 0.6, step: 0.001) {
            let x = s.position(at: t)
            #expect((x - 200) * displacement >= 0, "crossed the target at t \(t): \(x)")
            if settled == nil, abs(x - 200) < 0.5 { settled = t }
        }
        #expect(settled.map { $0 < 0.5 } == true, "settled at \(String(describing: settled))")
        #expect(s.isDone(at: 0.5))
    }

    @Test("under-damped springs overshoot; crossing times land on the target", arguments: [0.1, 0.3, 0.7])
    func underDampedOvershoots(ratio: Double) {
        let spring = SpringDescription(dampingRatio: ratio, naturalFrequency: 30)
        let s = SpringSimulation(spring: spring, position: 100, velocity: 0, target: 0)
        let lowest = sampleTimes(until: 0.5, step: 0.001).map { s.position(at: $0) }.min()!
        #expect(lowest < -1)
        let crossing = s.firstCrossingTime
        #expect(crossing != nil)
        if let crossing {
            #expect(abs(s.position(at: crossing)) < 1e-9)
            // From rest the first zero is a quarter of a damped period in, shifted by the phase.
            let w = 30 * (1 - ratio * ratio).squareRoot()
            let expected = (Double.atan2(y: ratio * 30 / w, x: 1) + Double.pi / 2) / w
            #expect(isClose(crossing, expected, relative: 1e-12))
            #expect(sampleTimes(until: crossing * 0.999, step: crossing / 1000).allSatisfy { s.position(at: $0) > 0 })
        }
    }

    @Test("crossing times of critically and over-damped springs thrown at the target", arguments: [1.0, 1.5, 4.0])
    func thrownCrossing(ratio: Double) {
        let spring = SpringDescription(dampingRatio: ratio, naturalFrequency: 30)
        let s = SpringSimulation(spring: spring, position: 10, velocity: -5000, target: 0)
        let crossing = s.firstCrossingTime
        #expect(crossing != nil)
        if let crossing {
            #expect(abs(s.position(at: crossing)) < 1e-9)
            #expect(s.position(at: crossing * 0.99) > 0)
            #expect(s.position(at: crossing * 1.01) < 0)
        }
        let fromRest = SpringSimulation(spring: spring, position: 10, velocity: 0, target: 0)
        #expect(fromRest.firstCrossingTime == nil)
    }

    // A bounce from an edge at low speed turns within half a pixel: there |v| passes through
    // zero while |x| < 0.5 px, which must not count as done.
    @Test("done, once reached, stays done, and the motion stays within tolerance after", arguments: [
        (1.0, 0.0, 50.0), (1.0, 0.0, 15.0), (1.0, 300.0, -2000.0), (1.0, 800.0, 0.0),
        (0.4, 100.0, 0.0), (2.5, 0.0, 400.0), (0.9, -20.0, 100.0),
    ])
    func doneStaysDone(ratio: Double, x0: Double, v0: Double) {
        let s = SpringSimulation(spring: SpringDescription(dampingRatio: ratio, naturalFrequency: 30), position: x0, velocity: v0, target: 0)
        var doneAt: Double?
        for t in sampleTimes(until: 3, step: 0.0005) {
            if let doneAt {
                #expect(s.isDone(at: t), "ζ \(ratio): done at \(doneAt), not at \(t)")
                #expect(abs(s.position(at: t)) < s.tolerance.distance && abs(s.velocity(at: t)) < s.tolerance.velocity)
            } else if s.isDone(at: t) {
                doneAt = t
            }
        }
        #expect(doneAt != nil)
    }

    @Test("descriptions: critical, ratio and frequency round-trip; named springs")
    func descriptions() {
        let critical = SpringDescription.critical(naturalFrequency: 30, mass: 0.5)
        #expect(isClose(critical.dampingRatio, 1))
        #expect(isClose(critical.naturalFrequency, 30))
        // Loupe's page spring, m 0.5, k 500, ζ 1 (`src/widgets/sliding_view.rs`): ω = √1000
        // (docs/physics.md, "Springs").
        let loupe = SpringDescription(mass: 0.5, stiffness: 500, damping: 2 * (0.5 * 500.0).squareRoot())
        #expect(isClose(loupe.naturalFrequency, 1000.0.squareRoot()))
        #expect(isClose(loupe.dampingRatio, 1))
        #expect(SpringDescription.pageSnap.naturalFrequency == 30)
        #expect(SpringDescription.edgeBounce.dampingRatio == 1)
        #expect(SpringDescription.zoomBounce.naturalFrequency == 40)
    }

    @Test("zoom bounce-back returns a 2x over-zoom within 0.1 % in 0.25 s, at rest by 0.3 s")
    func zoomBounce() {
        let s = SpringSimulation(spring: .zoomBounce, position: 2, velocity: 0, target: 1, tolerance: .zoomScale)
        #expect(abs(s.position(at: 0.25) - 1) < Tolerance.zoomScale.distance)
        #expect(s.isDone(at: 0.3))
        #expect(s.firstCrossingTime == nil)
    }
}
