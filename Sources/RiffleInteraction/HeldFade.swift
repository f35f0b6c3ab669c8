/// A label's opacity as a pure function of time: 1 from the moment it is shown until `hold`
/// after, then a linear fall to 0 over `fadeOut`: opacity(t) = clamp(1 − (t − shown − hold) /
/// fadeOut, 0, 1), and 0 before it is ever shown. The slideshow's label and the notices share it.
public struct HeldFade: Hashable, Sendable {
    /// Seconds of full opacity after each showing.
    public let hold: Double
    /// Seconds of the fall to 0 after the hold.
    public let fadeOut: Double
    private var shownAt: Double?

    /// A fade that has never been shown.
    public init(hold: Double, fadeOut: Double) {
        self.hold = hold
        self.fadeOut = fadeOut
    }

    /// Shows it fully from clock time `t`.
    public mutating func show(at t: Double) { shownAt = t }

    /// Opacity at `t` (the formula above).
    public func opacity(at t: Double) -> Double {
        guard let shownAt else { return 0 }
        return min(max(1 - (t - shownAt - hold) / fadeOut, 0), 1)
    }

    /// True while it shows or fades at `t`.
    public func isAnimating(at t: Double) -> Bool {
        guard let shownAt else { return false }
        return t < shownAt + hold + fadeOut
    }
}
