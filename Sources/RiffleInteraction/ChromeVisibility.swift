/// When the pager's chrome shows, as a pure function of time, adapted to a mouse: moving the
/// pointer shows it, and it fades out `idleDelay` after the last motion unless the pointer rests
/// on it; pinned (the white "bars" mode a click toggles) it stays until unpinned; held (a panel or
/// overlay open over the photo) it shows and stays until let go, then the idle timer starts.
///
/// Opacity moves linearly towards its target, 0 or 1, at 1/`fadeDuration` per second, starting
/// from wherever it is when the target changes (a fade reversed midway turns back without a jump).
/// The idle timer is part of the value: at `hideAt` the target becomes 0, so `opacity(at:)` is
/// exact for any t without a step in between; querying never changes anything.
public struct ChromeVisibility: Hashable, Sendable {
    /// 0.2 s for a full fade in or out (Riffle's choice, near UIKit's bar hide/show animation:
    /// docs/physics.md, "Chrome").
    public static let fadeDuration = 0.2
    /// 2 s without pointer motion before the chrome fades out (Riffle's choice: docs/physics.md,
    /// "Chrome").
    public static let idleDelay = 2.0

    private var from: Double
    private var target: Double
    private var start: Double
    /// When the shown chrome starts fading out by itself, or nil when it will not.
    private var hideAt: Double?
    /// True in the bars mode: shown whatever the pointer does.
    public private(set) var isPinned: Bool
    /// True while a panel or overlay holds the chrome shown.
    public private(set) var isHeld = false

    /// Chrome at rest at clock 0: shown when `pinned`, else hidden.
    public init(pinned: Bool = false) {
        isPinned = pinned
        from = pinned ? 1 : 0
        target = from
        start = 0
    }

    /// Opacity at `t`: 0 hidden … 1 shown.
    public func opacity(at t: Double) -> Double {
        if let hideAt, t >= hideAt {
            return Self.ramp(from: Self.ramp(from: from, to: target, start: start, at: hideAt), to: 0, start: hideAt, at: t)
        }
        return Self.ramp(from: from, to: target, start: start, at: t)
    }

    /// True when the chrome is shown or on its way to being shown at `t` (not fading out).
    public func isShown(at t: Double) -> Bool {
        if let hideAt, t >= hideAt { return false }
        return target == 1
    }

    /// True while the opacity changes, or the idle timer runs, at `t`.
    public func isAnimating(at t: Double) -> Bool {
        if let hideAt, t < hideAt { return true }
        return opacity(at: t) != (isShown(at: t) ? 1 : 0)
    }

    /// The pointer moved with no button held at `t`, now over the chrome or not: the chrome shows,
    /// and its idle timer restarts (none runs while the pointer is on it, or while pinned).
    public mutating func pointerMoved(at t: Double, onChrome: Bool) {
        aim(at: 1, at: t)
        hideAt = isPinned || isHeld || onChrome ? nil : t + Self.idleDelay
    }

    /// Holds the chrome shown from `t` (a panel opened), or lets it go (the panel closed): then,
    /// unless pinned, it fades `idleDelay` later, as after a motion.
    public mutating func setHeld(_ held: Bool, at t: Double) {
        guard held != isHeld else { return }
        isHeld = held
        if held {
            aim(at: 1, at: t)
        } else if !isPinned, isShown(at: t) {
            hideAt = t + Self.idleDelay
        }
    }

    /// Pins (the bars mode: shown until unpinned) or unpins (hidden at once, unless held) the
    /// chrome at `t`.
    public mutating func setPinned(_ pinned: Bool, at t: Double) {
        isPinned = pinned
        aim(at: pinned || isHeld ? 1 : 0, at: t)
        hideAt = nil
    }

    // Starts a ramp from the opacity at `t` (the idle timer's fade included) towards `value`.
    private mutating func aim(at value: Double, at t: Double) {
        from = opacity(at: t)
        target = value
        start = t
        hideAt = nil
    }

    // Linear from `from` at `start` to `to`, at 1/fadeDuration per second, then held.
    private static func ramp(from: Double, to: Double, start: Double, at t: Double) -> Double {
        let step = max(t - start, 0) / fadeDuration
        return to > from ? min(from + step, to) : max(from - step, to)
    }
}
