/// A bounded one-axis scroll after release: friction inside the bounds, a spring back to an
/// edge outside them (Flutter's `BouncingScrollSimulation`), or a spring to a chosen rest point.
///
/// Built at once from (x, v) as at most three phases, each a simulation in its own local time:
/// - starting inside [min, max]: friction; if its path would cross an edge, at the crossing time
///   it hands off to a spring towards that edge carrying the velocity there (position and
///   velocity continuous), which brings the content back to rest at the edge;
/// - starting outside: a spring to the nearest edge. If that spring would cross the edge (a flick
///   back inwards from the stretched state), it hands off at the crossing to friction inside the
///   bounds, as above; otherwise it ends at the edge without overshoot.
/// Bounds that change mid-flight: build a new one from `position(at: t)` and `velocity(at: t)`;
/// a restart at the same bounds follows the same path.
public struct ScrollSimulation: Simulation, Hashable {
    /// One piece of the motion, starting at `start` seconds.
    private enum Phase: Hashable, Sendable {
        case friction(FrictionSimulation)
        case spring(SpringSimulation)

        func position(at t: Double) -> Double {
            switch self {
            case let .friction(s): return s.position(at: t)
            case let .spring(s): return s.position(at: t)
            }
        }

        func velocity(at t: Double) -> Double {
            switch self {
            case let .friction(s): return s.velocity(at: t)
            case let .spring(s): return s.velocity(at: t)
            }
        }

        func isDone(at t: Double) -> Bool {
            switch self {
            case let .friction(s): return s.isDone(at: t)
            case let .spring(s): return s.isDone(at: t)
            }
        }
    }

    private let phases: [Phase]
    // phaseStarts[i]: when phases[i] begins, seconds since the start; phaseStarts[0] = 0.
    private let phaseStarts: [Double]
    /// The times (seconds since the start, ascending) at which one phase hands off to the next:
    /// empty, or the moment(s) the motion crosses an edge.
    public let handOffTimes: [Double]
    /// The range the content rests in; `snapping` simulations have `target...target`.
    public let bounds: ClosedRange<Double>
    /// What "at rest" means for `isDone(at:)`.
    public let tolerance: Tolerance

    /// A released scroll at `position` moving at `velocity` (units per second) within `bounds`.
    ///
    /// `rate` slows it inside the bounds; `spring` returns it to an edge.
    public init(
        position: Double, velocity: Double, bounds: ClosedRange<Double>,
        rate: DecelerationRate = .normal, spring: SpringDescription = .edgeBounce, tolerance: Tolerance = .pixels
    ) {
        self.bounds = bounds
        self.tolerance = tolerance
        var phases: [Phase] = []
        var starts: [Double] = []
        var x = position, v = velocity, start = 0.0
        var coasts = true

        if x < bounds.lowerBound || x > bounds.upperBound {
            let edge = x < bounds.lowerBound ? bounds.lowerBound : bounds.upperBound
            let back = SpringSimulation(spring: spring, position: x, velocity: v, target: edge, tolerance: tolerance)
            phases.append(.spring(back))
            starts.append(start)
            if let crossing = back.firstCrossingTime {
                // Carried back inside: from the edge on, friction takes over.
                x = edge
                v = back.velocity(at: crossing)
                start = crossing
            } else {
                coasts = false
            }
        }
        if coasts {
            let friction = FrictionSimulation(rate: rate, position: x, velocity: v, tolerance: tolerance)
            let edge = v > 0 ? bounds.upperBound : bounds.lowerBound
            phases.append(.friction(friction))
            starts.append(start)
            if v != 0, (friction.finalPosition - edge) * v > 0, let crossing = friction.time(toReachPosition: edge) {
                let spring = SpringSimulation(
                    spring: spring, position: edge, velocity: friction.velocity(at: crossing), target: edge, tolerance: tolerance)
                phases.append(.spring(spring))
                starts.append(start + crossing)
            }
        }
        // A zero-length first phase (e.g. a fling starting exactly at an edge) is dropped.
        while starts.count > 1, starts[1] <= starts[0] {
            phases.removeFirst()
            starts.removeFirst()
        }
        self.phases = phases
        self.phaseStarts = starts
        self.handOffTimes = Array(starts.dropFirst())
    }

    /// A spring from (`position`, `velocity`) to the rest point `target` (page snapping).
    public static func snapping(
        position: Double, velocity: Double, target: Double,
        spring: SpringDescription = .pageSnap, tolerance: Tolerance = .pixels
    ) -> ScrollSimulation {
        ScrollSimulation(
            phases: [.spring(SpringSimulation(spring: spring, position: position, velocity: velocity, target: target, tolerance: tolerance))],
            bounds: target...target, tolerance: tolerance)
    }

    private init(phases: [Phase], bounds: ClosedRange<Double>, tolerance: Tolerance) {
        self.phases = phases
        self.phaseStarts = [0]
        self.handOffTimes = []
        self.bounds = bounds
        self.tolerance = tolerance
    }

    /// The position of the phase running at `t` (t < 0 answers as t = 0).
    public func position(at t: Double) -> Double {
        let (phase, local) = phase(at: t)
        return phase.position(at: local)
    }

    /// The velocity of the phase running at `t` (t < 0 answers as t = 0).
    public func velocity(at t: Double) -> Double {
        let (phase, local) = phase(at: t)
        return phase.velocity(at: local)
    }

    /// True once the last phase has begun and is done within `tolerance`.
    public func isDone(at t: Double) -> Bool {
        guard let lastStart = phaseStarts.last, t >= lastStart, let last = phases.last else { return false }
        return last.isDone(at: t - lastStart)
    }

    /// Where the motion ends: the last spring's target, or the friction's asymptotic rest point
    /// (the motion stops up to tolerance.velocity / k short of it, where `isDone` first holds).
    public var restingPosition: Double {
        switch phases.last {
        case let .spring(s): return s.target
        case let .friction(f): return f.finalPosition
        case nil: return .nan
        }
    }

    private func phase(at t: Double) -> (Phase, Double) {
        var index = 0
        while index + 1 < phaseStarts.count, t >= phaseStarts[index + 1] { index += 1 }
        return (phases[index], t - phaseStarts[index])
    }
}
