/// A one-axis motion that is a pure function of time (Flutter's `Simulation`).
///
/// `t` is seconds since the simulation started. Every query is pure: a simulation is a value,
/// querying never mutates it, and asking for any t in any order gives the same answers.
/// Times before the start (t < 0) answer as t = 0: the simulation sits at its initial state.
public protocol Simulation: Sendable {
    /// Position at time `t` (seconds since start), in the simulation's unit.
    func position(at t: Double) -> Double
    /// Velocity at time `t`: the time derivative of `position(at:)`, in unit per second.
    func velocity(at t: Double) -> Double
    /// True once the motion has come to rest within `tolerance`; stays true for every later t.
    func isDone(at t: Double) -> Bool
    /// What "at rest" means for `isDone(at:)`.
    var tolerance: Tolerance { get }
}
