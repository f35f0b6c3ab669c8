import RiffleDisplay
import RiffleInteraction

/// Runs a `Viewer` on a live display until the user quits: input from the display, time from the
/// clock it is given (the app's monotonic clock), one frame per 1/60 s while something moves, and
/// a blocking wait for input (or a finished decode) when nothing does, so an idle viewer uses no
/// CPU.
///
/// While animating, whatever wakes the loop early (input, a decode, the server's MIT-SHM
/// completion events) is collected, not drawn: the next frame comes at its time and takes it in,
/// so input waits at most one frame and the frame rate never exceeds 60 Hz.
public struct LiveLoop {
    /// Frame interval while animating, in seconds.
    public static let frameInterval = 1.0 / 60

    private let viewer: Viewer
    private let display: Display
    private let now: () -> Double

    /// A loop driving `viewer` on `display`, reading the time from `now`.
    ///
    /// `now` returns seconds on the timeline the display stamps its events on: the app's
    /// `MonotonicClock` when live. The loop waits only in `display.waitForEvents(timeout:)`, never
    /// on its own, so a display paired with a virtual clock (a test's) moves that clock as it waits.
    public init(viewer: Viewer, display: Display, now: @escaping () -> Double) {
        self.viewer = viewer
        self.display = display
        self.now = now
    }

    /// Returns when the viewer wants to quit.
    public func run() {
        var pending: [InputEvent] = []
        while !viewer.wantsToQuit {
            let frameTime = now()
            pending += display.pollEvents()
            for event in pending { viewer.handle(event, now: event.time ?? frameTime) }
            pending.removeAll()
            viewer.advance(to: frameTime)
            viewer.renderIfNeeded()
            if viewer.wantsToQuit { break }
            if viewer.isAnimating {
                let deadline = frameTime + Self.frameInterval
                while case let remaining = deadline - now(), remaining > 0 {
                    display.waitForEvents(timeout: remaining)
                    pending += display.pollEvents()
                }
            } else {
                display.waitForEvents(timeout: nil)
            }
        }
    }
}
