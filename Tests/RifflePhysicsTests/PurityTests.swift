import Testing
@testable import RifflePhysics

/// Simulations are values and pure functions of time: any order of queries gives the same answers.
struct PurityTests {
    static let simulations: [(String, any Simulation)] = [
        ("friction", FrictionSimulation(rate: .normal, position: 10, velocity: 2500)),
        ("spring critical", SpringSimulation(spring: .pageSnap, position: 900, velocity: -300, target: 0)),
        ("spring under-damped", SpringSimulation(spring: SpringDescription(dampingRatio: 0.3, naturalFrequency: 25), position: 0, velocity: 800, target: 50)),
        ("spring over-damped", SpringSimulation(spring: SpringDescription(dampingRatio: 2, naturalFrequency: 25), position: 0, velocity: 800, target: 50)),
        ("scroll hand-off", ScrollSimulation(position: 500, velocity: 3000, bounds: 0...1000)),
        ("scroll back in", ScrollSimulation(position: 1100, velocity: -8000, bounds: 0...1000)),
        ("scroll snapping", ScrollSimulation.snapping(position: -300, velocity: -900, target: -1020)),
    ]

    @Test("querying t in any order gives the same results", arguments: [7 as UInt64, 1234, 99_999])
    func anyOrder(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let times = sampleTimes(until: 3, step: 0.005) + [-1, 0, 1e-9, 100]
        for (name, simulation) in Self.simulations {
            let inOrder = times.map { (simulation.position(at: $0), simulation.velocity(at: $0), simulation.isDone(at: $0)) }
            let shuffled = Array(times.indices).shuffled(using: &generator)
            for i in shuffled {
                let t = times[i]
                #expect(simulation.position(at: t) == inOrder[i].0, "\(name) t \(t) seed \(seed)")
                #expect(simulation.velocity(at: t) == inOrder[i].1, "\(name) t \(t) seed \(seed)")
                #expect(simulation.isDone(at: t) == inOrder[i].2, "\(name) t \(t) seed \(seed)")
            }
            // Before the start it sits at its initial state.
            #expect(simulation.position(at: -1) == simulation.position(at: 0))
            // Done at the end, and done stays done.
            #expect(simulation.isDone(at: 100))
        }
    }
}
