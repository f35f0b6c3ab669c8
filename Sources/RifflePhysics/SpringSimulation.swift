import RealModule

/// A one-axis damped spring pulling a position towards `target`, from any initial velocity
/// (Flutter's `SpringSimulation`, closed forms from `spring_simulation.dart`).
///
/// With displacement x = position − target, x0 and v0 at t = 0, and m, c, k the spring's:
/// - critically damped (c² = 4mk): r = −c/2m, x(t) = (c1 + c2·t)·e^(r·t), c1 = x0, c2 = v0 − r·x0;
/// - over-damped (c² > 4mk): r1,2 = (−c ∓ √(c² − 4mk))/2m, x(t) = c1·e^(r1·t) + c2·e^(r2·t),
///   c2 = (v0 − r1·x0)/(r2 − r1), c1 = x0 − c2;
/// - under-damped (c² < 4mk): r = −c/2m, w = √(4mk − c²)/2m,
///   x(t) = e^(r·t)·(c1·cos w·t + c2·sin w·t), c1 = x0, c2 = (v0 − r·x0)/w.
/// A critically damped spring never crosses its target unless it starts moving towards it
/// faster than ω·|x0| (then it crosses once); `firstCrossingTime` says when.
/// Done from the moment |x| < tolerance.distance and |v| < tolerance.velocity are sure to hold
/// for all later time: judged on decaying envelopes of the closed forms, because |v| alone dips
/// to zero at every turning point (a bounce would otherwise count as done at its peak).
public struct SpringSimulation: Simulation, Hashable {
    /// The spring's constants.
    public let spring: SpringDescription
    /// Where the spring comes to rest.
    public let target: Double
    /// Position at t = 0.
    public let initialPosition: Double
    /// Velocity at t = 0, units per second.
    public let initialVelocity: Double
    /// What "at rest" means for `isDone(at:)`.
    public let tolerance: Tolerance
    private let solution: Solution

    // Springs whose damping ratio lies within this of 1 use the critical closed form: the
    // over-damped one divides by r2 − r1 → 0 there. Unit-free; 1e-6 keeps that quotient's
    // rounding error below about 1e-10 relative.
    private static let criticalDampingRatioTolerance = 1e-6

    private enum Solution: Hashable, Sendable {
        case critical(r: Double, c1: Double, c2: Double)
        case overDamped(r1: Double, r2: Double, c1: Double, c2: Double)
        case underDamped(r: Double, w: Double, c1: Double, c2: Double)
    }

    /// A spring towards `target` from `position` moving at `velocity` (units per second).
    public init(spring: SpringDescription, position: Double, velocity: Double, target: Double, tolerance: Tolerance = .pixels) {
        self.spring = spring
        self.target = target
        self.initialPosition = position
        self.initialVelocity = velocity
        self.tolerance = tolerance
        let m = spring.mass, k = spring.stiffness, c = spring.damping
        let x0 = position - target, v0 = velocity
        let cmk = c * c - 4 * m * k
        if abs(spring.dampingRatio - 1) <= Self.criticalDampingRatioTolerance {
            let r = -c / (2 * m)
            solution = .critical(r: r, c1: x0, c2: v0 - r * x0)
        } else if cmk > 0 {
            let root = cmk.squareRoot()
            let r1 = (-c - root) / (2 * m), r2 = (-c + root) / (2 * m)
            let c2 = (v0 - r1 * x0) / (r2 - r1)
            solution = .overDamped(r1: r1, r2: r2, c1: x0 - c2, c2: c2)
        } else {
            let r = -c / (2 * m), w = (-cmk).squareRoot() / (2 * m)
            solution = .underDamped(r: r, w: w, c1: x0, c2: (v0 - r * x0) / w)
        }
    }

    /// target + x(t) per the closed form for the spring's damping (t < 0 answers as t = 0).
    public func position(at t: Double) -> Double {
        target + displacement(at: max(t, 0))
    }

    /// x'(t), units per second (t < 0 answers as t = 0).
    public func velocity(at t: Double) -> Double {
        let t = max(t, 0)
        switch solution {
        case let .critical(r, c1, c2):
            return (r * (c1 + c2 * t) + c2) * Double.exp(r * t)
        case let .overDamped(r1, r2, c1, c2):
            return c1 * r1 * Double.exp(r1 * t) + c2 * r2 * Double.exp(r2 * t)
        case let .underDamped(r, w, c1, c2):
            let e = Double.exp(r * t), cosine = Double.cos(w * t), sine = Double.sin(w * t)
            return e * ((r * c1 + w * c2) * cosine + (r * c2 - w * c1) * sine)
        }
    }

    /// True when sup over s ≥ t of |x(s)| is below tolerance.distance and of |v(s)| below
    /// tolerance.velocity, bounded by envelopes: critical (a + b·s)·e^(r·s) with a, b the
    /// magnitudes of the coefficients; over-damped |c1|·e^(r1·s) + |c2|·e^(r2·s); under-damped
    /// √(c1² + c2²)·e^(r·s). Once true, true for every later t.
    public func isDone(at t: Double) -> Bool {
        let t = max(t, 0)
        let (distance, speed): (Double, Double)
        switch solution {
        case let .critical(r, c1, c2):
            distance = Self.supremum(abs(c1), abs(c2), r, from: t)
            speed = Self.supremum(abs(r * c1 + c2), abs(r * c2), r, from: t)
        case let .overDamped(r1, r2, c1, c2):
            distance = abs(c1) * Double.exp(r1 * t) + abs(c2) * Double.exp(r2 * t)
            speed = abs(c1 * r1) * Double.exp(r1 * t) + abs(c2 * r2) * Double.exp(r2 * t)
        case let .underDamped(r, w, c1, c2):
            let e = Double.exp(r * t)
            distance = (c1 * c1 + c2 * c2).squareRoot() * e
            speed = ((r * c1 + w * c2) * (r * c1 + w * c2) + (r * c2 - w * c1) * (r * c2 - w * c1)).squareRoot() * e
        }
        return distance < tolerance.distance && speed < tolerance.velocity
    }

    /// sup over s ≥ t of (a + b·s)·e^(r·s) for a, b ≥ 0 and r < 0: the curve peaks at
    /// s = −1/r − a/b, so the supremum is its value at max(t, that peak).
    private static func supremum(_ a: Double, _ b: Double, _ r: Double, from t: Double) -> Double {
        let s = b > 0 ? max(t, -1 / r - a / b) : t
        return (a + b * s) * Double.exp(r * s)
    }

    /// The first t > 0 at which the position equals `target` (an overshoot begins there), or nil
    /// when the motion only approaches it. Critical: −c1/c2; over-damped: ln(−c2/c1)/(r1 − r2);
    /// under-damped: the first positive zero of cos(w·t − atan2(c2, c1)).
    public var firstCrossingTime: Double? {
        switch solution {
        case let .critical(_, c1, c2):
            guard c1 != 0, c2 != 0 else { return nil }
            let t = -c1 / c2
            return t > 0 ? t : nil
        case let .overDamped(r1, r2, c1, c2):
            guard c1 != 0 else { return nil }
            let ratio = -c2 / c1
            guard ratio > 0 else { return nil }
            let t = Double.log(ratio) / (r1 - r2)
            return t > 0 ? t : nil
        case let .underDamped(_, w, c1, c2):
            guard c1 != 0 || c2 != 0 else { return nil }
            // c1·cos + c2·sin = R·cos(w·t − φ), zero where w·t − φ = π/2 + n·π.
            let phi = Double.atan2(y: c2, x: c1)
            let halfPeriod = Double.pi / w
            var t = (phi + Double.pi / 2) / w
            while t <= 0 { t += halfPeriod }
            while t - halfPeriod > 0 { t -= halfPeriod }
            return t
        }
    }

    private func displacement(at t: Double) -> Double {
        switch solution {
        case let .critical(r, c1, c2):
            return (c1 + c2 * t) * Double.exp(r * t)
        case let .overDamped(r1, r2, c1, c2):
            return c1 * Double.exp(r1 * t) + c2 * Double.exp(r2 * t)
        case let .underDamped(r, w, c1, c2):
            return Double.exp(r * t) * (c1 * Double.cos(w * t) + c2 * Double.sin(w * t))
        }
    }
}
