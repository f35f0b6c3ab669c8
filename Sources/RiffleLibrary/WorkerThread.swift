import Glibc

/// Starts a detached POSIX thread running a closure, with a stack of a chosen size and a lower
/// scheduling priority: the decode workers' threads.
package enum WorkerThread {
    /// The workers' nice value (0 is the app's). Under Linux's fair scheduler a thread of nice
    /// 10 weighs 110 against 1024 for nice 0 (kernel/sched/core.c, `sched_prio_to_weight`), so
    /// when the frame loop and both decoders want the two cores at once the frame gets its time
    /// and is not late; when the loop is idle, as it is between frames, the decoders still have
    /// the cores to themselves. (Apple's background quality-of-service does the same for work
    /// the user is not waiting on this frame.)
    static let niceness: Int32 = 10

    /// Runs `body` on a new detached thread with a stack of `stackBytes`, at `niceness`. Stops
    /// the process if the thread cannot be created, since without its workers the app could
    /// never show a photo.
    package static func start(stackBytes: Int, _ body: @escaping @Sendable () -> Void) {
        final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            // On Linux the nice value is per thread, and who = 0 names the calling one (man 2
            // setpriority, NOTES); a failure leaves the thread at the app's priority.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, WorkerThread.niceness)
            box.body()
            return nil
        }, box)
        precondition(status == 0, "cannot start a thread: \(String(cString: strerror(status)))")
    }
}
