/// A slideshow's schedule as a pure function of time: while it runs it asks for the next photo
/// every `interval` seconds from when it started or last resumed, at since + k·interval for
/// k = 1, 2, … (a late frame takes the page turn then, and the next stays on the same beat).
///
/// Between turns nothing moves: the runtime sleeps until `nextAdvance`. Pausing (any input, or
/// s) stops the beat; s then starts a new slideshow, on a beat from that moment (docs/physics.md,
/// "Slideshow"). What a turn does (the next photo, back to the first, the end) is the viewer's.
public struct Slideshow: Hashable, Sendable {
    /// How a slideshow runs: `riffle --slideshow SECONDS [--loop]`, or s with the defaults.
    public struct Settings: Hashable, Sendable {
        /// Seconds between photos (> 0).
        public var interval: Double
        /// True when the last photo is followed by the first again, else the slideshow ends there.
        public var loops: Bool

        public init(interval: Double = Slideshow.defaultInterval, loops: Bool = false) {
            self.interval = interval
            self.loops = loops
        }
    }

    /// 5 s between photos unless asked: eog's default (the `seconds` key of its
    /// `org.gnome.eog.fullscreen` settings schema).
    public static let defaultInterval = 5.0

    /// Where the slideshow is.
    public enum State: Hashable, Sendable {
        /// Turning a page at since + k·interval; `turns` taken so far.
        case running(since: Double, turns: Int)
        /// Stopped by input or by s.
        case paused
        /// Past the last photo without looping; s starts it again.
        case ended
    }

    public let settings: Settings
    public private(set) var state: State

    /// A slideshow with `settings` running from clock time `t`.
    public init(settings: Settings, startingAt t: Double) {
        self.settings = settings
        state = .running(since: t, turns: 0)
    }

    /// True while it runs.
    public var isRunning: Bool {
        if case .running = state { return true }
        return false
    }

    /// Clock time of the next page turn while running, since + (turns + 1)·interval; nil when
    /// paused or ended.
    public var nextAdvance: Double? {
        guard case let .running(since, turns) = state else { return nil }
        return since + Double(turns + 1) * settings.interval
    }

    /// True when a page turn is due at clock time `t` (then taken: the next is due at the first
    /// multiple of the interval after `t`).
    public mutating func takeAdvance(at t: Double) -> Bool {
        guard case let .running(since, _) = state, let next = nextAdvance, t >= next else { return false }
        state = .running(since: since, turns: Int(((t - since) / settings.interval).rounded(.down)))
        return true
    }

    /// Stops the beat (input, or s while running).
    public mutating func pause() {
        if isRunning { state = .paused }
    }

    /// Stops at the last photo.
    public mutating func end() {
        state = .ended
    }
}
