import Foundation

/// Runs `work` on a thread of its own and returns its result, or nil when it has not ended
/// `seconds` after it started (the thread is then left to run: what it hangs in cannot be
/// stopped from outside).
///
/// For a check that something ends at all. Swift Testing's `.timeLimit` counts from the test's
/// start, and with the suite running in parallel a test can wait that long for a thread of the
/// cooperative pool before its body runs: a minute's limit on a check of a few milliseconds
/// failed in CI. This deadline counts from when the work itself starts.
public func ending<Result: Sendable>(within seconds: Double, _ work: @escaping @Sendable () -> Result) -> Result? {
    let box = EndingBox<Result>()
    let thread = Thread {
        box.result = work()
        box.done.signal()
    }
    thread.start()
    guard box.done.wait(timeout: .now() + seconds) == .success else { return nil }
    return box.result
}

/// Where `ending(within:_:)`'s thread leaves its result: written before `done` is signalled,
/// read only after the wait for it succeeded.
private final class EndingBox<Result>: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var result: Result?
}
