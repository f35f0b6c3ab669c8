import RiffleInteraction

/// What the runtime drives — the live loop on a display, or a replay on a virtual clock: input
/// in, time on, frames out. A scene never reads a clock or polls a display for input itself, and
/// asks for what lies outside it (quitting, fullscreen, the pointer's shape) through the commands `handle` returns.
///
/// All calls come from the app's thread.
public protocol Scene: AnyObject {
    /// Applies one input event received at clock time `now` (seconds); returns what the runtime
    /// must do, in order.
    func handle(_ event: InputEvent, now: Double) -> [AppCommand]

    /// Moves animations to clock time `now` and takes in finished background work; returns what
    /// the runtime must do that no input asked for (a resting pointer hides), in order.
    @discardableResult
    func advance(to now: Double) -> [AppCommand]

    /// The clock time at which `advance` has something to do though nothing animates and no
    /// input comes (a resting pointer hides in fullscreen); nil when there is none. An idle
    /// runtime waits for input no longer than until then.
    var wakeTime: Double? { get }

    /// Draws and presents a frame if anything visible changed since the last one; true when it
    /// drew. With `time` (clock seconds, not before the last `advance`), the frame shows the
    /// pager's animations as they will be then, when the frame reaches the screen (the next
    /// vblank: a display link's target time); the models themselves stay where `advance` left
    /// them, so input is still taken at its own times. Nil draws them as they are.
    @discardableResult
    func renderIfNeeded(presentedAt time: Double?) -> Bool

    /// True while something moves or waits with time, so the runtime must keep stepping frames.
    var isAnimating: Bool { get }

    /// Blocks until every decode asked for so far has finished, then takes the results in (a
    /// replay's frames never depend on decode speed).
    func settleDecodes()
}

extension Scene {
    /// Draws the frame as things are now (`renderIfNeeded(presentedAt: nil)`): replays, whose
    /// frames are snapshots of their own clock.
    @discardableResult
    public func renderIfNeeded() -> Bool { renderIfNeeded(presentedAt: nil) }
}
