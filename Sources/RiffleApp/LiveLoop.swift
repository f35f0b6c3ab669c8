import RiffleDisplay

/// Runs a `Viewer` on a live display until the user quits: input from the display, time from the
/// monotonic clock, a frame at most every 1/60 s while something moves, and a blocking wait for
/// input (or a finished decode) when nothing does, so an idle viewer uses no CPU.
public struct LiveLoop {
    /// Target frame interval while animating, in seconds.
    public static let frameInterval = 1.0 / 60

    private let viewer: Viewer
    private let display: Display
    private let clock: MonotonicClock

    public init(viewer: Viewer, display: Display, clock: MonotonicClock) {
        self.viewer = viewer
        self.display = display
        self.clock = clock
    }

    /// Returns when the viewer wants to quit.
    public func run() {
        var lastFrame = clock.now()
        while !viewer.wantsToQuit {
            let now = clock.now()
            for event in display.pollEvents() { viewer.handle(event, now: event.time ?? now) }
            viewer.advance(to: now)
            if viewer.renderIfNeeded() { lastFrame = now }
            if viewer.wantsToQuit { break }
            if viewer.isAnimating {
                let wait = lastFrame + Self.frameInterval - clock.now()
                if wait > 0 { display.waitForEvents(timeout: wait) }
            } else {
                display.waitForEvents(timeout: nil)
            }
        }
    }
}
