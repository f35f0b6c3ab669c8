import RealModule

/// A one-axis fling slowing down under UIScrollView-style exponential friction.
///
/// With k = `rate.decayConstant` = −1000 · ln r:
/// v(t) = v0 · r^(1000·t) = v0 · e^(−k·t);
/// x(t) = x0 + v0 · (r^(1000·t) − 1) / (1000 · ln r) = x0 + v0 · (1 − e^(−k·t)) / k;
/// x(∞) = x0 − v0 / (1000 · ln r) = x0 + v0 / k.
/// Done when |v(t)| < `tolerance.velocity`: the motion then stops where `position(at:)` says
/// (up to v/k short of `finalPosition`, as in Flutter); it never jumps to `finalPosition`.
public struct FrictionSimulation: Simulation, Hashable {
    /// How much velocity survives each millisecond.
    public let rate: DecelerationRate
    /// x0: position at t = 0.
    public let initialPosition: Double
    /// v0: velocity at t = 0, units per second.
    public let initialVelocity: Double
    /// What "at rest" means; only `velocity` is used.
    public let tolerance: Tolerance

    /// A fling from `position` at `velocity` (units per second) slowing at `rate`.
    public init(rate: DecelerationRate = .normal, position: Double, velocity: Double, tolerance: Tolerance = .pixels) {
        self.rate = rate
        self.initialPosition = position
        self.initialVelocity = velocity
        self.tolerance = tolerance
    }

    /// x0 + v0 · (1 − e^(−k·t)) / k, for t ≥ 0 (earlier t answer as t = 0).
    public func position(at t: Double) -> Double {
        let t = max(t, 0)
        let k = rate.decayConstant
        return initialPosition + initialVelocity * -Double.expMinusOne(-k * t) / k
    }

    /// v0 · e^(−k·t), for t ≥ 0 (earlier t answer as t = 0).
    public func velocity(at t: Double) -> Double {
        initialVelocity * Double.exp(-rate.decayConstant * max(t, 0))
    }

    /// |v(t)| < tolerance.velocity.
    public func isDone(at t: Double) -> Bool {
        abs(velocity(at: t)) < tolerance.velocity
    }

    /// x0 + v0 / k: where the motion would come to rest after infinite time.
    public var finalPosition: Double {
        initialPosition + initialVelocity * rate.distancePerVelocity
    }

    /// The first t ≥ 0 with x(t) = `x`: −ln(1 − (x − x0) · k / v0) / k; nil when the fling never
    /// gets there (behind the start, at or beyond `finalPosition`; within rounding of it the time
    /// is finite but very long). 0 when x = x0.
    public func time(toReachPosition x: Double) -> Double? {
        let distance = x - initialPosition
        if distance == 0 { return 0 }
        guard initialVelocity != 0 else { return nil }
        let k = rate.decayConstant
        // Fraction of the total travel v0/k that `x` lies at; reachable only in [0, 1).
        let fraction = distance * k / initialVelocity
        guard fraction > 0, fraction < 1 else { return nil }
        return -Double.log(onePlus: -fraction) / k
    }

    /// The t ≥ 0 with v(t) = `v`: ln(v0 / v) / k; nil when never reached (opposite sign, faster
    /// than v0, or zero from a moving start: the decay is asymptotic). 0 when v = v0.
    public func time(whenVelocityIs v: Double) -> Double? {
        if v == initialVelocity { return 0 }
        guard v != 0, initialVelocity != 0, (v > 0) == (initialVelocity > 0), abs(v) < abs(initialVelocity) else {
            return nil
        }
        return Double.log(initialVelocity / v) / rate.decayConstant
    }

    /// The first t at which `isDone(at:)` holds: when |v| falls to `tolerance.velocity`.
    public var timeToRest: Double {
        let speed = abs(initialVelocity)
        guard speed >= tolerance.velocity, tolerance.velocity > 0 else { return speed < tolerance.velocity ? 0 : .infinity }
        return Double.log(speed / tolerance.velocity) / rate.decayConstant
    }
}
