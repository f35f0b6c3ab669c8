import Dispatch
import Glibc
import Synchronization
import RiffleGeometry
import RiffleImageIO

/// A photo to decode for a window size: decoded at no less than the size it is shown at.
public struct DecodeRequest: Hashable, Sendable {
    public let index: Int
    public let path: String
    /// The window size the photo is decoded to fit (the decoder derives the pixel size).
    public let viewport: PixelSize
    /// How much larger than at fit the photo is shown (1 at fit, 2.5 after a double-click):
    /// a zoomed photo is decoded sharper, up to its full resolution.
    public let detail: Double

    /// A quick coarse decode to show while the real one runs.
    public let isPreview: Bool
    /// For a preview: only the EXIF thumbnail, nothing when the file has none (for neighbours,
    /// where a 1/8 decode would cost a good part of the real one).
    public let thumbnailOnly: Bool
    /// For a huge photo seen zoomed in: the pyramid tiles to decode (all in one request, so the
    /// decoder can share the rows it must read); empty for a whole-photo decode.
    public let tiles: [TileKey]
    /// For a huge photo on screen: open its tile source ahead of any zoom (read the file and
    /// index its scan), so that the first zoomed view's tiles need only their own rows.
    public let opensTiles: Bool

    /// True for work bounded by a few milliseconds (an EXIF thumbnail: the file's first KiB and a
    /// 160×120 decode), which the service's quick lane takes so that it never waits behind a
    /// photo's 100 ms decode.
    public var isQuick: Bool { thumbnailOnly }

    public init(
        index: Int, path: String, viewport: PixelSize, detail: Double = 1, isPreview: Bool = false,
        thumbnailOnly: Bool = false, tiles: [TileKey] = [], opensTiles: Bool = false
    ) {
        self.index = index
        self.path = path
        self.viewport = viewport
        self.detail = max(1, detail)
        self.isPreview = isPreview
        self.thumbnailOnly = isPreview && thumbnailOnly
        self.tiles = tiles
        self.opensTiles = opensTiles
    }
}

/// Raised by the service when a decode already running is no longer wanted (its photo left the
/// neighbourhood, or a preview's photo lost the focus): the decoder looks at it between pieces
/// of work and gives up, so its core goes to the photos that are wanted now.
public final class DecodeCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    /// True once the decode's result can no longer be used.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }

    func cancel() { flag.store(true, ordering: .relaxed) }
}

/// A finished decode: the request, what came of it, and how long it took (seconds).
public struct DecodeResult<Output: Sendable>: Sendable {
    public let request: DecodeRequest
    public let output: Output
    public let seconds: Double
}

/// Decodes photos on background threads, most wanted first, so the frame loop never decodes.
///
/// The app says what it wants, in priority order, with `want(_:)`; requests that fall off the
/// list before a worker starts them are dropped (a photo paged past is never decoded), and
/// those that fall off while running have their `DecodeCancellation` raised. Workers
/// take the first pending request; the quick lane's workers take only the first quick one
/// (`DecodeRequest.isQuick`), so a thumbnail for a page sliding in never waits behind full
/// decodes that hold every other worker. Results wait in an inbox that the app drains on its own
/// thread with `takeResults()`. `onResult` is called from the worker after each result (the app
/// uses it to wake its loop).
public final class DecodeService<Output: Sendable>: @unchecked Sendable {
    private let condition = ConditionLock()
    private var pending: [DecodeRequest] = []
    private var running: [DecodeRequest: DecodeCancellation] = [:]
    private var inbox: [DecodeResult<Output>] = []
    private var stopping = false
    private let decode: @Sendable (DecodeRequest, DecodeCancellation) -> Output
    private let onResult: @Sendable () -> Void

    /// Starts `workers` threads (at least one) that take any request, and `quickWorkers` that
    /// take only quick ones.
    public init(
        workers: Int, quickWorkers: Int = 0, decode: @escaping @Sendable (DecodeRequest, DecodeCancellation) -> Output,
        onResult: @escaping @Sendable () -> Void
    ) {
        self.decode = decode
        self.onResult = onResult
        // Workers hold the service until `shutdown()` lets them return.
        for _ in 0..<max(1, workers) {
            WorkerThread.start(stackBytes: Self.workerStackBytes) { self.work(quickOnly: false) }
        }
        for _ in 0..<max(0, quickWorkers) {
            WorkerThread.start(stackBytes: Self.workerStackBytes) { self.work(quickOnly: true) }
        }
    }

    /// Replaces the pending list with `requests` (highest priority first), leaving out any that
    /// is being decoded right now, and cancels the running decodes `requests` leaves out.
    public func want(_ requests: [DecodeRequest]) {
        condition.lock()
        let wanted = Set(requests)
        for (request, cancellation) in running where !wanted.contains(request) { cancellation.cancel() }
        pending = requests.filter { running[$0] == nil }
        condition.broadcast()
        condition.unlock()
    }

    /// The results finished since the last call, in finishing order.
    public func takeResults() -> [DecodeResult<Output>] {
        condition.lock()
        defer { condition.unlock() }
        let out = inbox
        inbox.removeAll()
        return out
    }

    /// Blocks until nothing is pending or running (results may wait in the inbox).
    public func waitUntilIdle() {
        condition.lock()
        while !pending.isEmpty || !running.isEmpty { condition.wait() }
        condition.unlock()
    }

    /// Stops the workers after their current decode; pending requests are dropped.
    public func shutdown() {
        condition.lock()
        stopping = true
        pending.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// Stack of a decode thread: decoding keeps its pixels on the heap; libjpeg's frames and
    /// the Swift ones above them take a few tens of KiB.
    static var workerStackBytes: Int { 1 << 20 }

    /// Niceness of the decode threads (Linux per-thread): the frame loop must win the cores
    /// when both are busy, or a decode finishing mid-slide drops frames; 5 gives a frame thread
    /// three times a decoder's share (CFS weights 1024 vs 335), not all of it, since decodes
    /// must still land before the slide ends.
    static var workerNiceness: Int32 { 5 }

    private func work(quickOnly: Bool) {
        // Linux keeps niceness per thread: PRIO_PROCESS with who = 0 sets the calling thread's.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.workerNiceness)
        while true {
            condition.lock()
            func next() -> Int? { quickOnly ? pending.firstIndex(where: \.isQuick) : pending.indices.first }
            while next() == nil && !stopping { condition.wait() }
            if stopping {
                condition.unlock()
                return
            }
            let request = pending.remove(at: next()!)
            let cancellation = DecodeCancellation()
            running[request] = cancellation
            condition.unlock()

            let start = DispatchTime.now().uptimeNanoseconds
            let output = decode(request, cancellation)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9

            condition.lock()
            running[request] = nil
            inbox.append(DecodeResult(request: request, output: output, seconds: seconds))
            condition.broadcast()
            condition.unlock()
            onResult()
        }
    }
}
