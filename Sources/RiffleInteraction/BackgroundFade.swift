/// The chrome toggle's background fade between white (chrome shown) and black (chrome hidden),
/// as a pure function of time.
///
/// blackness b goes from b0 to its target (0 or 1) along a smoothstep, u·u·(3 − 2u), over
/// `duration` · |target − b0| seconds, so a toggle reversed mid-fade turns back without a jump
/// and at the same speed.
public struct BackgroundFade: Hashable, Sendable {
    /// 0.25 s for a full fade (Riffle's choice; near UIKit's bar hide/show animations, whose
    /// duration Apple does not publish: docs/physics.md, "Background fade").
    public static let duration = 0.25

    private var from: Double
    private var target: Double
    private var start: Double

    /// At rest: white with chrome when `chromeVisible`, else black.
    public init(chromeVisible: Bool = true) {
        from = chromeVisible ? 0 : 1
        target = from
        start = 0
    }

    /// True when the chrome is (or is fading to be) shown.
    public var chromeVisible: Bool { target == 0 }

    /// Background blackness at `t`: 0 white (chrome shown) … 1 black (chrome hidden).
    public func blackness(at t: Double) -> Double {
        let length = Self.duration * abs(target - from)
        guard length > 0 else { return target }
        let u = min(max((t - start) / length, 0), 1)
        return from + (target - from) * u * u * (3 - 2 * u)
    }

    /// True while the fade runs at `t`.
    public func isAnimating(at t: Double) -> Bool {
        t - start < Self.duration * abs(target - from)
    }

    /// Toggles the chrome at `t`: the fade turns towards the other colour from where it is.
    public mutating func toggle(at t: Double) {
        from = blackness(at: t)
        target = chromeVisible ? 1 : 0
        start = t
    }
}
