/// A short-lived notice that an action happened where nothing else shows it ("Copied", after
/// Ctrl+C puts the photo on the clipboard), as a pure function of time: opacity 1 from when it
/// is shown until `hold` after, then a linear fall to 0 over `fadeOut` (the slideshow label's
/// shape). GNOME's Loupe says "Image copied to clipboard" in a toast for the same key.
public struct NoticeLabel: Hashable, Sendable {
    /// 1 s of full opacity: one word read at a glance (Riffle's choice).
    public static let hold = 1.0
    /// 0.3 s to fade out, as the zoom and slideshow labels (`ZoomLabel.fadeOut`).
    public static let fadeOut = ZoomLabel.fadeOut

    /// What the notice says; "" before any.
    public private(set) var text = ""
    private var fade = HeldFade(hold: Self.hold, fadeOut: Self.fadeOut)

    /// A notice that has never been shown.
    public init() {}

    /// Shows `text` fully from clock time `t`.
    public mutating func show(_ text: String, at t: Double) {
        self.text = text
        fade.show(at: t)
    }

    /// Opacity at `t` (`HeldFade`); 0 before any notice.
    public func opacity(at t: Double) -> Double { fade.opacity(at: t) }

    /// True while the notice shows or fades at `t`.
    public func isAnimating(at t: Double) -> Bool { fade.isAnimating(at: t) }
}
