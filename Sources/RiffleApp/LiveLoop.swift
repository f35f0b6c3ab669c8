import RiffleDisplay
import RiffleInteraction

/// Runs a `Scene` on a live display until the user quits: input from the display, time from the
/// clock it is given (the app's monotonic clock), one frame per vblank while something moves
/// (the display's, when it knows them through Present; else one per refresh of the monitor's
/// RandR mode; else one per 1/60 s), and
/// a blocking wait for input (or a finished decode) when nothing does, so an idle scene uses no
/// CPU (an idle wait ends at the scene's `wakeTime`: when a resting pointer hides, when a playing
/// animation's next frame is due, so that it draws at its own frame rate and not at 60 Hz). The scene's
/// commands are carried out by `AppCommandPerformer` (a drop replaces the scene with the one
/// `open` makes for its paths); quit ends the loop.
///
/// While animating, whatever wakes the loop early (input, a decode, the server's MIT-SHM
/// completion events) is collected, not drawn: the next frame comes at its time and takes it in,
/// so input waits at most one frame and the frame rate never exceeds the display's. Each frame
/// is drawn as the pager will be when it is shown (`Scene.renderIfNeeded(presentedAt:)`): at the
/// vblank that shows it, so the frame answering a key already moves, or at once where the display
/// has no scanout to wait for. Each frame drawn tells the display the oldest input it answers,
/// for the input-to-photon latency.
public struct LiveLoop {
    /// Frame interval while animating, in seconds, where the display knows neither its vblanks
    /// nor its monitor's rate.
    public static let frameInterval = 1.0 / 60

    private let scene: Scene
    private let display: Display
    private let now: () -> Double
    private let performer: AppCommandPerformer

    /// A loop driving `scene` on `display`, reading the time from `now`.
    ///
    /// `now` returns seconds on the timeline the display stamps its events on: the app's
    /// `MonotonicClock` when live. The loop waits only in `display.waitForEvents(timeout:)`, never
    /// on its own, so a display paired with a virtual clock (a test's) moves that clock as it waits.
    /// `open` makes the scene for dropped paths (nil: the current one stays).
    public init(scene: Scene, display: Display, now: @escaping () -> Double, open: @escaping ([String]) -> Scene? = { _ in nil }) {
        self.scene = scene
        self.display = display
        self.now = now
        performer = AppCommandPerformer(display: display, open: open)
    }

    /// Returns when the scene asks to quit.
    public func run() {
        // The scene shown now: a drop replaces it.
        var scene = self.scene
        var pending: [InputEvent] = []
        var quit = false
        // The oldest input no frame has answered yet: kept while what it started moves (a key's
        // page slide shows its first change a frame later), dropped when it changed nothing.
        var unanswered: Double?
        while !quit {
            let frameTime = now()
            pending += display.pollEvents()
            unanswered = ([unanswered] + pending.map(\.time)).compactMap { $0 }.min()
            for event in pending where !quit {
                quit = performer.perform(scene.handle(event, now: event.time ?? frameTime), on: &scene)
            }
            pending.removeAll()
            if quit { break }
            if performer.perform(scene.advance(to: frameTime), on: &scene) { break }
            // While something moves, the display's timing (Present): the frame is drawn as it
            // will be when it is seen (a display link's target time), the next vblank or, on a
            // server with no scanout, at once; the next frame starts at the next vblank. The
            // other paths show a frame as soon as it is drawn, and a still scene (an animated
            // GIF's frame falling due) has nothing to draw ahead.
            let timing = scene.isAnimating ? display.frameTiming(startedAt: frameTime) : nil
            if scene.renderIfNeeded(presentedAt: timing?.shownAt) {
                if let unanswered { display.presentedFrameAnswers(inputAt: unanswered) }
                unanswered = nil
            } else if !scene.isAnimating {
                unanswered = nil
            }
            if scene.isAnimating {
                // The next vblank, else the monitor's rate (RandR), else 60 Hz.
                let deadline = timing?.nextFrameStart ?? frameTime + (display.refreshInterval ?? Self.frameInterval)
                while case let remaining = deadline - now(), remaining > 0 {
                    display.waitForEvents(timeout: remaining)
                    pending += display.pollEvents()
                }
            } else {
                display.waitForEvents(timeout: scene.wakeTime.map { max(0, $0 - now()) })
            }
        }
    }
}
