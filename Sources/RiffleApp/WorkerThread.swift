import Glibc

/// Starts a detached POSIX thread running a closure, with a stack of a chosen size: the decode
/// workers' threads.
enum WorkerThread {
    /// Runs `body` on a new detached thread with a stack of `stackBytes`. Stops the process if
    /// the thread cannot be created, since without its workers the app could never show a photo.
    static func start(stackBytes: Int, _ body: @escaping @Sendable () -> Void) {
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
            box.body()
            return nil
        }, box)
        precondition(status == 0, "cannot start a thread: \(String(cString: strerror(status)))")
    }
}
