import RealModule
import Testing
@testable import RifflePhysics

struct ScrollSimulationTests {
    struct Fling: Sendable, CustomTestStringConvertible {
        var x0: Double, v0: Double, lower: Double, upper: Double, r: Double
        var bounds: ClosedRange<Double> { lower...upper }
        var rate: DecelerationRate { DecelerationRate(perMillisecond: r) }
        var edge: Double { v0 > 0 ? upper : lower }
        var testDescription: String { "x0 \(x0) v0 \(v0) in \(lower)...\(upper) r \(r)" }
    }

    // Flings from inside whose friction path would end beyond an edge.
    static let crossing: [Fling] = [
        Fling(x0: 500, v0: 3000, lower: 0, upper: 1000, r: 0.998),
        Fling(x0: 500, v0: -6000, lower: 0, upper: 1000, r: 0.998),
        Fling(x0: 0, v0: 2500, lower: 0, upper: 1000, r: 0.998),
        Fling(x0: 990, v0: 400, lower: -200, upper: 1000, r: 0.998),
        Fling(x0: 300, v0: -20_000, lower: 0, upper: 5000, r: 0.99),
        Fling(x0: 999.9, v0: 50, lower: 0, upper: 1000, r: 0.998),
    ]

    @Test("friction hands off to the edge spring at the crossing time, continuously", arguments: crossing)
    func handOff(_ f: Fling) {
        let s = ScrollSimulation(position: f.x0, velocity: f.v0, bounds: f.bounds, rate: f.rate)
        // Crossing time from the friction formula: x0 + v0·(1 − e^(−k·t))/k = edge.
        let k = -1000 * Double.log(f.r)
        let expected = -Double.log(1 - (f.edge - f.x0) * k / f.v0) / k
        let vAtEdge = f.v0 * Double.exp(-k * expected)
        #expect(s.handOffTimes.count == 1)
        guard let tc = s.handOffTimes.first else { return }
        #expect(isClose(tc, expected, absolute: 1e-12, relative: 1e-9))
        #expect(isClose(s.position(at: tc), f.edge, absolute: 1e-9))
        #expect(isClose(s.velocity(at: tc), vAtEdge, absolute: 1e-9, relative: 1e-9))
        // 1 µs either side: the position moves by about v·2 µs, the velocity by at most the
        // spring's deceleration c·v·2 µs (c = 60/s at ω = 30): far below these bounds.
        let h = 1e-6
        #expect(abs(s.position(at: tc + h) - s.position(at: tc - h)) < abs(vAtEdge) * 2 * h + 1e-6)
        #expect(abs(s.velocity(at: tc + h) - s.velocity(at: tc - h)) < abs(vAtEdge) * 200 * h + 1e-6)
        // Inside the bounds it is the friction simulation; after, a spring at the edge.
        let friction = FrictionSimulation(rate: f.rate, position: f.x0, velocity: f.v0)
        #expect(s.position(at: tc / 2) == friction.position(at: tc / 2))
    }

    @Test("after the hand-off it peaks at v/(ω·e) past the edge and comes back to rest at it", arguments: crossing)
    func bounceBack(_ f: Fling) {
        let s = ScrollSimulation(position: f.x0, velocity: f.v0, bounds: f.bounds, rate: f.rate)
        guard let tc = s.handOffTimes.first else { Issue.record("no hand-off"); return }
        let vAtEdge = s.velocity(at: tc)
        // Critically damped from the edge at speed v: displacement v·t·e^(−ω·t), peak v/(ω·e) at 1/ω.
        let peak = abs(vAtEdge) / (30 * Double.exp(1))
        #expect(isClose(abs(s.position(at: tc + 1.0 / 30) - f.edge), peak, relative: 1e-9))
        var done: Double?
        for t in sampleTimes(until: 5, step: 0.001) {
            let x = s.position(at: t)
            #expect(x >= f.lower - peak - 1e-9 && x <= f.upper + peak + 1e-9)
            if t > tc { #expect((x - f.edge) * f.v0 >= -1e-9, "came back past the edge at t \(t)") }
            if done == nil, s.isDone(at: t) { done = t }
            if let done, t >= done { #expect(s.isDone(at: t)) }
        }
        #expect(done != nil)
        #expect(isClose(s.position(at: 30), f.edge, absolute: 1e-6))
        #expect(s.restingPosition == f.edge)
        #expect(abs(s.position(at: done ?? 0) - f.edge) < Tolerance.pixels.distance)
    }

    @Test("a fling outwards from exactly an edge is the edge spring alone", arguments: [(1000.0, 50.0), (0.0, -3000.0)])
    func fromTheEdge(x0: Double, v0: Double) {
        let s = ScrollSimulation(position: x0, velocity: v0, bounds: 0...1000)
        let spring = SpringSimulation(spring: .edgeBounce, position: x0, velocity: v0, target: x0)
        #expect(s.handOffTimes.isEmpty)
        for t in [0, 0.01, 0.1, 0.5] {
            #expect(s.position(at: t) == spring.position(at: t))
        }
        #expect(s.restingPosition == x0)
    }

    @Test("a fling that stops inside is plain friction", arguments: [(100.0, 500.0), (900.0, -1500.0), (400.0, 0.0)])
    func staysInside(x0: Double, v0: Double) {
        let s = ScrollSimulation(position: x0, velocity: v0, bounds: 0...1000)
        let friction = FrictionSimulation(rate: .normal, position: x0, velocity: v0)
        #expect(s.handOffTimes.isEmpty)
        for t in [0, 0.1, 0.5, 2, 10] {
            #expect(s.position(at: t) == friction.position(at: t))
            #expect(s.velocity(at: t) == friction.velocity(at: t))
            #expect(s.isDone(at: t) == friction.isDone(at: t))
        }
        #expect(s.restingPosition == friction.finalPosition)
    }

    @Test("starting outside springs back to the nearest edge without overshoot", arguments: [
        (1200.0, 0.0), (1050.0, 800.0), (1400.0, -2000.0), (-300.0, 0.0), (-5.0, -100.0), (-600.0, 9000.0),
    ])
    func springsBack(x0: Double, v0: Double) {
        let s = ScrollSimulation(position: x0, velocity: v0, bounds: 0...1000)
        let edge = x0 > 1000 ? 1000.0 : 0.0
        #expect(s.handOffTimes.isEmpty)
        var settled: Double?
        for t in sampleTimes(until: 1, step: 0.001) {
            let x = s.position(at: t)
            #expect((x - edge) * (x0 - edge) >= 0, "overshot at t \(t): \(x)")
            if settled == nil, abs(x - edge) < 0.5 { settled = t }
        }
        #expect(settled.map { $0 < 0.5 } == true)
        #expect(s.isDone(at: 0.5))
        #expect(s.restingPosition == edge)
    }

    @Test("flicked back in from the stretched state, it coasts on inside from the edge", arguments: [
        (1100.0, -8000.0), (-40.0, 4000.0),
    ])
    func flickedBackIn(x0: Double, v0: Double) {
        let s = ScrollSimulation(position: x0, velocity: v0, bounds: 0...1000)
        let edge = x0 > 1000 ? 1000.0 : 0.0
        guard let tc = s.handOffTimes.first else { Issue.record("no hand-off"); return }
        // Critical spring from D with v0 crosses at t = −D/(v0 + ω·D).
        let d = x0 - edge
        #expect(isClose(tc, -d / (v0 + 30 * d), relative: 1e-12))
        #expect(isClose(s.position(at: tc), edge, absolute: 1e-9))
        let h = 1e-6
        #expect(abs(s.position(at: tc + h) - s.position(at: tc - h)) < abs(s.velocity(at: tc)) * 2 * h + 1e-6)
        #expect(abs(s.velocity(at: tc + h) - s.velocity(at: tc - h)) < 1)
        let rest = s.position(at: 30)
        #expect(rest >= 0 && rest <= 1000)
        #expect(s.isDone(at: 30))
    }

    @Test("snapping springs to the target within 0.5 px before 0.5 s", arguments: [
        (0.0, -1500.0, -1020.0), (-700.0, 0.0, -1020.0), (-900.0, 2000.0, 0.0), (10.0, 0.0, 0.0),
    ])
    func snapping(x0: Double, v0: Double, target: Double) {
        let s = ScrollSimulation.snapping(position: x0, velocity: v0, target: target)
        let spring = SpringSimulation(spring: .pageSnap, position: x0, velocity: v0, target: target)
        for t in [0, 0.05, 0.2, 0.49] {
            #expect(s.position(at: t) == spring.position(at: t))
        }
        #expect(abs(s.position(at: 0.5) - target) < 0.5)
        #expect(s.isDone(at: 0.5))
        #expect(s.restingPosition == target)
    }

    @Test("restarting from (x(t), v(t)) with the same bounds continues the same path", arguments: [
        0.05, 0.2, 0.31, 0.6, 1.5,
    ])
    func restart(at t: Double) {
        for (x0, v0) in [(500.0, 3000.0), (1200.0, 0.0), (1100.0, -8000.0)] {
            let s = ScrollSimulation(position: x0, velocity: v0, bounds: 0...1000)
            let again = ScrollSimulation(position: s.position(at: t), velocity: s.velocity(at: t), bounds: 0...1000)
            for later in [0.0, 0.01, 0.1, 0.4, 2] {
                #expect(isClose(again.position(at: later), s.position(at: t + later), absolute: 1e-6, relative: 1e-9),
                        "from (\(x0), \(v0)) restarted at \(t), \(later) later")
                #expect(isClose(again.velocity(at: later), s.velocity(at: t + later), absolute: 1e-4, relative: 1e-7))
            }
        }
    }

    @Test("bounds changing mid-flight: a restart heads for the new edge")
    func boundsChange() {
        let s = ScrollSimulation(position: 500, velocity: 3000, bounds: 0...1000)
        let t = 0.1
        let shrunk = ScrollSimulation(position: s.position(at: t), velocity: s.velocity(at: t), bounds: 0...600)
        #expect(shrunk.position(at: 0) == s.position(at: t))
        #expect(isClose(shrunk.velocity(at: 0), s.velocity(at: t), relative: 1e-12))
        // 772 px: past the new edge, so it springs back to it.
        #expect(shrunk.position(at: 0) > 600)
        #expect(isClose(shrunk.position(at: 30), 600, absolute: 1e-6))
    }
}
