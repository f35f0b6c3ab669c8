import RealModule

/// A keyboard page change: the paging position glides from one page to another with a cubic
/// ease-out, as a pure function of time.
///
/// p(t) = from + (to − from) · (1 − (1 − t/T)³) for 0 ≤ t ≤ T, `to` after; T = `duration`.
public struct PageSlide: Sendable, Hashable {
    /// Length of a slide in seconds (UIKit's default animation length is 0.3 s; paging by key
    /// in Photos feels a touch slower).
    public static let duration = 0.35

    public let from: Double
    public let to: Double
    /// Clock time the slide started, in seconds.
    public let start: Double

    public init(from: Double, to: Double, start: Double) {
        self.from = from
        self.to = to
        self.start = start
    }

    /// The paging position (in pages) at clock time `t`.
    public func position(at t: Double) -> Double {
        let u = min(max((t - start) / Self.duration, 0), 1)
        return from + (to - from) * (1 - Double.pow(1 - u, 3))
    }

    /// True once the slide has reached `to`: t ≥ start + duration.
    // Compared on the clock, not as t − start: 10.35 − 10 rounds below 0.35, so the subtraction
    // would miss the exact end time a caller computes as start + duration.
    public func isDone(at t: Double) -> Bool { t >= start + Self.duration }
}
