/// The short-lived label that says what the slideshow just did ("Slideshow, every 5 s",
/// "Slideshow paused", "Slideshow ended"), as a pure function of time: opacity 1 from the
/// latest change until `hold` after it, then a linear fall to 0 over `fadeOut` (the zoom
/// label's shape, held longer: docs/physics.md, "Slideshow label").
public struct SlideshowLabel: Hashable, Sendable {
    /// 1.5 s of full opacity: two or three words read at a glance, and no longer over the photo
    /// the slideshow is showing (Riffle's choice).
    public static let hold = 1.5
    /// 0.3 s to fade out, as the zoom label (`ZoomLabel.fadeOut`).
    public static let fadeOut = ZoomLabel.fadeOut

    /// What the slideshow did.
    public enum Message: Hashable, Sendable {
        /// It started or resumed, turning a page every `interval` seconds.
        case started(interval: Double)
        /// Input or s paused it.
        case paused
        /// It went past the last photo without looping.
        case ended

        /// "Slideshow, every 5 s" (the interval without a trailing ".0"), "Slideshow paused",
        /// "Slideshow ended".
        public var text: String {
            switch self {
            case let .started(interval):
                let seconds = interval == interval.rounded() && interval < 1e9 ? "\(Int(interval))" : "\(interval)"
                return "Slideshow, every \(seconds)\u{202F}s"
            case .paused: return "Slideshow paused"
            case .ended: return "Slideshow ended"
            }
        }
    }

    /// The latest message, nil before any.
    public private(set) var message: Message?
    private var fade = HeldFade(hold: Self.hold, fadeOut: Self.fadeOut)

    /// A label that has never been shown.
    public init() {}

    /// Shows `message` fully from clock time `t`.
    public mutating func show(_ message: Message, at t: Double) {
        self.message = message
        fade.show(at: t)
    }

    /// Opacity at `t` (`HeldFade`); 0 before any message.
    public func opacity(at t: Double) -> Double { fade.opacity(at: t) }

    /// True while the label shows or fades at `t`.
    public func isAnimating(at t: Double) -> Bool { fade.isAnimating(at: t) }
}
