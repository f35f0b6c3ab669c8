import Glibc

/// Starts a detached POSIX thread running a closure, with a stack of a chosen size, at the
/// process's priority or below it: the decode, thumbnail and folder workers' threads.
package enum WorkerThread {
    /// How far below the process's nice value background workers run (prefetch, thumbnails,
    /// folder watching): relative, so a Riffle started with `nice -n 5` keeps its workers below
    /// itself, and a plain one keeps them where they were (nice 10). Under Linux's fair scheduler
    /// a thread 10 nice levels down weighs 110 against 1024 (kernel/sched/core.c,
    /// `sched_prio_to_weight`), so when the frame loop and both decoders want the two cores at
    /// once the frame gets its time and is not late; when the loop is idle, as it is between
    /// frames, the decoders still have the cores to themselves. (Apple's background
    /// quality-of-service does the same for work the user is not waiting on this frame.)
    package static let backgroundNicenessOffset: Int32 = 10

    /// The highest nice value Linux has (man 2 setpriority): a lowered thread never goes past it.
    static let weakestNiceness: Int32 = 19

    /// The process's nice value: its main thread's (on Linux the main thread's id is the
    /// process's, and nice values are per thread, man 2 setpriority, NOTES).
    package static var processNiceness: Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(getpid()))
    }

    /// The nice value of a thread `offset` levels below the process (at most `weakestNiceness`).
    package static func niceness(below offset: Int32) -> Int32 { min(processNiceness + offset, weakestNiceness) }

    /// Lowers the calling thread to `offset` nice levels below the process (`niceness(below:)`):
    /// a thread started at the app's priority for work the user waits on, going on with work
    /// that can wait. One way only (an unprivileged thread cannot raise its priority again).
    package static func lowerCurrentThread(by offset: Int32 = backgroundNicenessOffset) {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness(below: offset))
    }

    /// Runs `body` on a new detached thread with a stack of `stackBytes`, `nicenessOffset` nice
    /// levels below the process (`niceness(below:)`), or, with nil, at the priority of the thread
    /// that starts it (the app's: never lowered, since an unprivileged thread cannot raise its
    /// priority again). Stops the process if the thread cannot be created, since without its
    /// workers the app could never show a photo.
    package static func start(
        stackBytes: Int, nicenessOffset: Int32? = backgroundNicenessOffset, _ body: @escaping @Sendable () -> Void
    ) {
        final class Box {
            let body: @Sendable () -> Void
            let niceness: Int32?
            init(_ body: @escaping @Sendable () -> Void, niceness: Int32?) {
                self.body = body
                self.niceness = niceness
            }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackBytes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let box = Unmanaged.passRetained(Box(body, niceness: nicenessOffset.map(niceness(below:)))).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, &attributes, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            // On Linux the nice value is per thread, and who = 0 names the calling one (man 2
            // setpriority, NOTES); a failure leaves the thread at the app's priority.
            if let nice = box.niceness { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) }
            box.body()
            return nil
        }, box)
        precondition(status == 0, "cannot start a thread: \(String(cString: strerror(status)))")
    }
}
