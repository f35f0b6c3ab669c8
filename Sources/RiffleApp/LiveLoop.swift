import RiffleDisplay
import RiffleInteraction

/// Runs a `Viewer` on a live display until the user quits: input from the display, time from the
/// monotonic clock, one frame per 1/60 s while something moves, and a blocking wait for input
/// (or a finished decode) when nothing does, so an idle viewer uses no CPU.
///
/// While animating, whatever wakes the loop early (input, a decode, the server's MIT-SHM
/// completion events) is collected, not drawn: the next frame comes at its time and takes it in,
/// so input waits at most one frame and the frame rate never exceeds 60 Hz.
public struct LiveLoop {
    /// Frame interval while animating, in seconds.
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
        var pending: [InputEvent] = []
        while !viewer.wantsToQuit {
            let now = clock.now()
            pending += display.pollEvents()
            for event in pending { viewer.handle(event, now: event.time ?? now) }
            pending.removeAll()
            viewer.advance(to: now)
            viewer.renderIfNeeded()
            if viewer.wantsToQuit { break }
            if viewer.isAnimating {
                let deadline = now + Self.frameInterval
                while case let remaining = deadline - clock.now(), remaining > 0 {
                    display.waitForEvents(timeout: remaining)
                    pending += display.pollEvents()
                }
            } else {
                display.waitForEvents(timeout: nil)
            }
        }
    }
}
