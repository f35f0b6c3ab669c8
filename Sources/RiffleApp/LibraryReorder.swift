import RiffleImageIO
import RiffleLibrary

/// A big library reordered by new dates on a thread of its own: at 100,000 photos a reorder
/// (`PhotoLibrary.dating`) costs about 60 ms, four frames, which the app's thread must not
/// spend while the index fills. One reorder runs at a time; its result waits in `take()` with
/// the generation of the library it started from, so the scene applies it only to that library
/// (a library changed meanwhile gets the dates again, sorted anew).
final class LibraryReorder: @unchecked Sendable {
    /// A finished reorder: the library's generation it began from, the dates it took in, and the
    /// update it made.
    struct Result {
        let generation: Int
        let dates: PhotoValues<TakenDate?>
        let update: LibraryUpdate
    }

    private let lock = ConditionLock()
    /// Under `lock`: a reorder is running; the last one finished and not yet taken.
    private var running = false
    private var finished: Result?
    private let wake: @Sendable () -> Void

    /// A reorderer that calls `wake` (from its thread) when a result is ready.
    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    /// True while a reorder runs or its result waits to be taken.
    var isBusy: Bool { lock.withLock { running || finished != nil } }

    /// Reorders `library` (of generation `generation`) by `dates` on a thread of its own, at the
    /// app's priority. Ignored (false) while another is busy.
    @discardableResult
    func start(_ library: PhotoLibrary, generation: Int, dates: PhotoValues<TakenDate?>) -> Bool {
        let began = lock.withLock {
            guard !running, finished == nil else { return false }
            running = true
            return true
        }
        guard began else { return false }
        // At the app's priority: the frames in date order wait on it, and it runs at most every
        // `NavigationScene.datingInterval` (at the workers' priority, beside the probe and the
        // thumbnails, 114 ms of sorting 100,000 photos took 670 ms).
        WorkerThread.start(stackBytes: 1 << 20, nicenessOffset: nil) { [self] in
            let update = library.dating(dates)
            lock.withLock {
                finished = Result(generation: generation, dates: dates, update: update)
                running = false
                lock.broadcast()
            }
            wake()
        }
        return true
    }

    /// The finished reorder, once (nil while none is ready).
    func take() -> Result? {
        lock.withLock {
            defer { finished = nil }
            return finished
        }
    }

    /// Blocks until no reorder runs (replays: the frames never depend on the sort's speed).
    func waitUntilIdle() {
        lock.withLock { while running { lock.wait() } }
    }
}
