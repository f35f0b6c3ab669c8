import Dispatch
import Foundation
import Glibc

/// Starts a benchmark's frames as `LiveLoop` starts the app's while something moves: each at
/// its slot, `interval` after the previous one started, or at once when that one ran past it.
/// Between frames the cores are left to the decode and thumbnail workers, as they are in the
/// app; a benchmark that drew its frames back to back would time every frame against workers
/// that, in the app, mostly run in the gaps.
///
/// `RIFFLE_BENCH_UNPACED` set starts every frame at once instead (the cores never idle between
/// frames: a harsher figure than the app meets).
struct FramePacer {
    /// False when `RIFFLE_BENCH_UNPACED` is set.
    static let isPacing = ProcessInfo.processInfo.environment["RIFFLE_BENCH_UNPACED"] == nil

    let interval: Double
    /// When the last frame started (monotonic nanoseconds), nil before the first.
    private var lastStart: UInt64?

    init(interval: Double) { self.interval = interval }

    /// Sleeps until this frame's slot: `interval` after the last frame's start, or not at all
    /// when that has passed (or when not pacing); the frame starts on return.
    mutating func waitForSlot() {
        defer { lastStart = DispatchTime.now().uptimeNanoseconds }
        guard Self.isPacing, let lastStart else { return }
        let slot = lastStart + UInt64(interval * 1e9)
        let now = DispatchTime.now().uptimeNanoseconds
        if slot > now { usleep(useconds_t((slot - now) / 1000)) }
    }
}
