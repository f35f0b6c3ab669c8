import Dispatch

/// The app's one clock: monotonic seconds since boot (never jumps with the wall clock). Every
/// instance reads the same timeline, so the display's event stamps and the frame loop agree.
/// Everything below the app receives times from it as plain numbers.
public struct MonotonicClock: Sendable {
    public init() {}

    /// Seconds on the monotonic timeline.
    public func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
