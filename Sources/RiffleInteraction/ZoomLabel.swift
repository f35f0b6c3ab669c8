/// The short-lived zoom-level label ("250 %") shown while a photo's zoom changes, as a pure
/// function of time: opacity 1 from the latest zoom change until `hold` after it, then a linear
/// fall to 0 over `fadeOut`. Loupe and eog show the same figure while zooming; Riffle's timing
/// (docs/physics.md, "Zoom-level label").
public struct ZoomLabel: Hashable, Sendable {
    /// 0.8 s of full opacity after the latest change: long enough to read a figure once the wheel
    /// or the zoom animation stops (Riffle's choice).
    public static let hold = 0.8
    /// 0.3 s to fade out (Riffle's choice, near UIKit's 0.25 s bar fades).
    public static let fadeOut = 0.3

    private var changedAt: Double?

    /// A label that has never been shown.
    public init() {}

    /// The zoom changed at `t`: the label shows fully from `t` on.
    public mutating func zoomChanged(at t: Double) {
        changedAt = max(changedAt ?? t, t)
    }

    /// Opacity at `t`: 1 until changedAt + hold, then 1 − (t − changedAt − hold)/fadeOut, clamped
    /// to [0, 1]; 0 before any change.
    public func opacity(at t: Double) -> Double {
        guard let changedAt else { return 0 }
        return min(max(1 - (t - changedAt - Self.hold) / Self.fadeOut, 0), 1)
    }

    /// True while the label shows or fades at `t`.
    public func isAnimating(at t: Double) -> Bool {
        guard let changedAt else { return false }
        return t < changedAt + Self.hold + Self.fadeOut
    }
}
