import RiffleGeometry

/// Estimates a pointer's velocity at release from timestamped positions (Flutter's
/// `VelocityTracker`), by a least-squares fit over the most recent samples.
///
/// Fit: per axis, a quadratic x(τ) = a + b·τ + c·τ² in τ = time − newest sample's time, over the
/// samples no older than `horizon` before the newest and with no gap over `stillnessThreshold`
/// between consecutive ones (Flutter fits the same degree 2 polynomial); the velocity is b, the
/// slope at the newest sample, exact for constant acceleration. Two usable samples (or samples at
/// only two distinct times) fall back to the linear fit's slope. The estimate is zero with fewer
/// than two samples, or when the pointer has been still for more than `stillnessThreshold`
/// before the query time. Units: seconds and pixels in, pixels per second out.
///
/// Bounds: b is kept between the latest measured speed and twice the mean, on each axis. Let m be
/// the linear fit's slope (the window's mean velocity) and s the difference quotient of the two
/// newest samples (the pointer's speed when last seen). For samples spread evenly over the
/// window, constant acceleration from rest gives b = 2m exactly; beyond that the quadratic is
/// extrapolating the curvature of a few unevenly spaced samples, and b is capped at 2m. Below
/// min(s, m) the parabola reads a slow-down the samples do not show — the pointer was still
/// moving at s when last seen (a pointer that had stopped is caught by `stillnessThreshold`) —
/// so b is raised to it; and a b against m (two moves of 50 px 16 ms apart, the first 0.5 ms
/// after the press, fit b = −91 000 px/s for m = +4 700 px/s) is raised the same way. For
/// samples that move one way only, m and s have their direction, so the estimate never points
/// backwards. (Unbounded, three moves from XTest or a low-rate mouse paged the wrong way, and
/// one event 35 ms late on a busy machine made a 2 600 px/s flick 49 px/s.)
public struct VelocityTracker: Hashable, Sendable {
    /// One pointer position at one moment.
    public struct Sample: Hashable, Sendable {
        /// Seconds on the caller's timeline (for X input, `ServerTimeline`).
        public var time: Double
        /// Pointer position, pixels.
        public var position: Point

        /// A sample of `position` at `time`.
        public init(time: Double, position: Point) {
            self.time = time
            self.position = position
        }
    }

    /// 0.1 s: only samples this recent count (Flutter `VelocityTracker`, `_horizonMilliseconds`).
    public static let horizon = 0.100
    /// 0.04 s: a pause longer than this means the pointer stopped (Flutter
    /// `_assumePointerMoveStoppedMilliseconds`).
    public static let stillnessThreshold = 0.040

    /// The samples that can still count, oldest first (older ones are dropped as new ones come).
    public private(set) var samples: [Sample] = []

    /// An empty tracker.
    public init() {}

    /// Adds a sample, kept in time order even if delivered out of order; drops samples that are
    /// older than `horizon` before the newest one.
    public mutating func add(time: Double, position: Point) {
        var index = samples.count
        while index > 0, samples[index - 1].time > time { index -= 1 }
        samples.insert(Sample(time: time, position: position), at: index)
        let newest = samples[samples.count - 1].time
        if let keep = samples.firstIndex(where: { newest - $0.time <= Self.horizon }), keep > 0 {
            samples.removeFirst(keep)
        }
    }

    /// Forgets every sample (a new touch begins).
    public mutating func reset() {
        samples.removeAll()
    }

    /// The estimated velocity at `time` (normally the release time, at or after the last sample),
    /// pixels per second; samples later than `time` are ignored. See the type for the fit.
    public func velocity(at time: Double) -> Point {
        guard let newestIndex = samples.lastIndex(where: { $0.time <= time }) else { return .zero }
        let newest = samples[newestIndex]
        if time - newest.time > Self.stillnessThreshold { return .zero }
        var window: [Sample] = [newest]
        var index = newestIndex
        while index > 0 {
            let older = samples[index - 1]
            if newest.time - older.time > Self.horizon || samples[index].time - older.time > Self.stillnessThreshold { break }
            window.append(older)
            index -= 1
        }
        guard window.count >= 2 else { return .zero }
        let taus = window.map { $0.time - newest.time }
        let xs = window.map { $0.position.x - newest.position.x }
        let ys = window.map { $0.position.y - newest.position.y }
        let step = window[0].time - window[1].time
        let latest = step > 0 ? (window[0].position - window[1].position) * (1 / step) : Point.zero
        return Point(
            x: Self.boundedSlope(taus, xs, latest: latest.x), y: Self.boundedSlope(taus, ys, latest: latest.y))
    }

    // Relative size below which a normal-equation determinant counts as singular: the samples
    // then span too few distinct times for the fit's degree. Unit-free.
    private static let singularity = 1e-9

    /// b of the least-squares quadratic through (τ, v) kept within [min(s, m), 2m] (or the
    /// mirror interval for m < 0), m the least-squares line's slope and s = `latest`, the newest
    /// difference quotient (taken as 0 when it points against m); m itself when the quadratic is
    /// singular; 0 when the line is singular too.
    private static func boundedSlope(_ taus: [Double], _ values: [Double], latest: Double) -> Double {
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0
        var t0 = 0.0, t1 = 0.0, t2 = 0.0
        for (tau, value) in zip(taus, values) {
            let tau2 = tau * tau
            s0 += 1; s1 += tau; s2 += tau2; s3 += tau2 * tau; s4 += tau2 * tau2
            t0 += value; t1 += value * tau; t2 += value * tau2
        }
        let lineDet = s0 * s2 - s1 * s1
        guard abs(lineDet) > singularity * s0 * s2, lineDet != 0 else { return 0 }
        let line = (s0 * t1 - s1 * t0) / lineDet
        // Normal equations [s0 s1 s2; s1 s2 s3; s2 s3 s4]·[a b c] = [t0 t1 t2]; b by Cramer's rule.
        guard taus.count >= 3 else { return line }
        let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
        guard abs(det) > singularity * s0 * s2 * s4 else { return line }
        let quadratic = (s0 * (t1 * s4 - s3 * t2) - t0 * (s1 * s4 - s3 * s2) + s2 * (s1 * t2 - t1 * s2)) / det
        // Worked on |·| along m's direction, then signed back.
        let sign: Double = line < 0 ? -1 : 1
        let floor = min(max(latest * sign, 0), abs(line))
        return sign * min(max(quadratic * sign, floor), 2 * abs(line))
    }
}
