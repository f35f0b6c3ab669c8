import Dispatch
import Glibc

/// The app's one clock: monotonic seconds since boot (never jumps with the wall clock). Every
/// instance reads the same timeline, so the display's event stamps and the frame loop agree.
/// Everything below the app receives times from it as plain numbers.
public struct MonotonicClock: Sendable {
    public init() {}

    /// Seconds on the monotonic timeline.
    public func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Blocks the calling thread for `seconds` (nothing for zero or less), on the same
    /// timeline: clock_nanosleep on CLOCK_MONOTONIC, resumed after a signal interrupts it.
    public static func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        let whole = seconds.rounded(.down)
        var request = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        var remaining = timespec()
        while clock_nanosleep(CLOCK_MONOTONIC, 0, &request, &remaining) == EINTR { request = remaining }
    }
}
