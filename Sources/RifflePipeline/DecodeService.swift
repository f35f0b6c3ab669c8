import Glibc
import RiffleLibrary
import Synchronization

/// Raised by the service when a decode already running is no longer wanted (its photo left the
/// neighbourhood, or a preview's photo lost the focus): the decoder looks at it between pieces
/// of work and gives up, so its core goes to the photos that are wanted now.
package final class DecodeCancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    /// True when a focus worker runs the decode (what is on screen, at the process's priority):
    /// it may take a second core for itself (`ImageDecoder.decodesOnTwoCores`).
    let isFocused: Bool

    init(isFocused: Bool = false) {
        self.isFocused = isFocused
    }

    /// True once the decode's result can no longer be used.
    var isCancelled: Bool { flag.load(ordering: .relaxed) }

    func cancel() { flag.store(true, ordering: .relaxed) }
}

/// A finished decode: the request, what came of it, and how long it took (seconds).
struct DecodeResult<Output: Sendable>: Sendable {
    let request: DecodeRequest
    let output: Output
    let seconds: Double
}

/// Who asks the decode service for work: each states its own wish list and takes its own
/// results. Listed in the order in which clients behind the front one are served.
package enum DecodeClient: CaseIterable, Hashable, Sendable {
    /// The full-screen photos (`PhotoStore`).
    case pager
    /// The library grid's thumbnails (`ThumbnailStore`).
    case grid
    /// The pager's navigator strip's thumbnails (a `ThumbnailStore` of its own).
    case strip
}

/// Decodes photos on background threads, most wanted first, for several clients at once, so
/// the frame loop never decodes.
///
/// Each client says what it wants, in priority order, with `want(_:for:urgent:)`; the service
/// merges the lists: every client's urgent requests first, the pager's (its focused photo) before
/// the others' even while the grid is in front, then the front client's (`setFront(_:)`) before
/// the rest; then the rest of the front client's list, then the others' lists in `DecodeClient`
/// order. A
/// request two clients want is decoded once. Requests that fall off every list before a worker
/// starts them are dropped (a photo paged past is never decoded), and those that fall off every
/// list while running have their `DecodeCancellation` raised: one client's new list never
/// drops or cancels what another still wants.
///
/// Workers take the first pending request; the quick lane's workers take only the first quick
/// one (`DecodeRequest.isQuick`), so a thumbnail for a page sliding in never waits behind full
/// decodes that hold every other worker. Focus workers take only urgent requests (what is on
/// screen) and run at the process's own priority; the others run below it
/// (`prefetchNicenessOffset`) and, when there are focus workers, leave urgent requests to them,
/// so the photo a person waits for is never decoded at prefetch's priority (one that was taken
/// as prefetch and became urgent while it ran finishes where it is). While the scene moves
/// (`setSceneMoves(_:)`: a scroll, a scrub, a change of level, a flight), only the pager's
/// urgent requests are urgent: the cells coming into view are made by the lowered workers, in
/// the same order, so the frames drawn meanwhile do not share a core as equals with them; at rest they go
/// to the focus workers again. Each result waits in the inbox of every client that
/// asked for it while it ran (a cancelled one too, so the client can ask again), and each
/// client drains its own on the app's thread with `takeResults(for:)`. `onResult` is called
/// from the worker after each result (the app uses it to wake its loop). How long each decode
/// took is read on the runtime's clock, which the service is given.
final class DecodeService<Output: Sendable>: @unchecked Sendable {
    /// One client's wish list: its `requests` in priority order, of which the first `urgent`
    /// go ahead of every client's.
    private struct WishList {
        var requests: [DecodeRequest] = []
        var urgent = 0
    }

    /// A request a worker is decoding.
    private struct Running {
        let cancellation: DecodeCancellation
        /// Every client that wanted it while it ran: they get its result.
        var askers: Set<DecodeClient>
        /// The clients that want it now; when none is left it is cancelled.
        var wanting: Set<DecodeClient>
    }

    private let condition = ConditionLock()
    private var wishes: [DecodeClient: WishList] = [:]
    private var front = DecodeClient.pager
    /// The merged wish lists, without what is running, with the clients that want each and
    /// whether one of them wants it urgently.
    private var pending: [(request: DecodeRequest, clients: Set<DecodeClient>, isUrgent: Bool)] = []
    /// True when focus workers take the urgent requests (the others then leave them).
    private let hasFocusWorkers: Bool
    /// True while the scene on screen moves: the other clients' urgent requests are then not
    /// urgent (`setSceneMoves(_:)`).
    private var sceneMoves = false

    /// What a worker takes: any request (urgent ones only without focus workers), only quick
    /// ones, or only urgent ones (a focus worker).
    private enum Lane { case any, quick, urgent }
    private var running: [DecodeRequest: Running] = [:]
    private var inboxes: [DecodeClient: [DecodeResult<Output>]] = [:]
    private var stopping = false
    private let decode: @Sendable (DecodeRequest, DecodeCancellation) -> Output
    private let onResult: @Sendable () -> Void
    /// The runtime's monotonic clock, seconds: what a decode's time is measured on.
    private let clock: @Sendable () -> Double

    /// Starts `workers` threads (at least one) that take any request, and `quickWorkers` that
    /// take only quick ones, both `prefetchNicenessOffset` below the process, and `focusWorkers`
    /// at the process's priority that take only urgent requests (what is on screen); with focus
    /// workers, the others leave urgent requests to them. Decodes are timed on `clock` (seconds).
    /// The pager is in front until `setFront(_:)` says otherwise.
    init(
        workers: Int, quickWorkers: Int = 0, focusWorkers: Int = 0, clock: @escaping @Sendable () -> Double,
        decode: @escaping @Sendable (DecodeRequest, DecodeCancellation) -> Output, onResult: @escaping @Sendable () -> Void
    ) {
        self.decode = decode
        self.onResult = onResult
        self.clock = clock
        // Workers hold the service until `shutdown()` lets them return.
        hasFocusWorkers = focusWorkers > 0
        for _ in 0..<max(1, workers) {
            WorkerThread.start(stackBytes: Self.workerStackBytes, nicenessOffset: Self.prefetchNicenessOffset) { self.work(.any) }
        }
        for _ in 0..<max(0, quickWorkers) {
            WorkerThread.start(stackBytes: Self.workerStackBytes, nicenessOffset: Self.prefetchNicenessOffset) { self.work(.quick) }
        }
        for _ in 0..<max(0, focusWorkers) {
            // At the app's own priority: the photo a person waits for never loses its core to
            // an ordinary program, nor to Riffle's own prefetch.
            WorkerThread.start(stackBytes: Self.workerStackBytes, nicenessOffset: nil) { self.work(.urgent) }
        }
    }

    /// Replaces `client`'s wish list with `requests` (highest priority first), of which the
    /// first `urgent` go ahead of every client's list, whichever client is in front. Drops
    /// `client`'s pending requests that `requests` leaves out, and cancels the running decodes
    /// it leaves out that no other client wants. A running request is not queued again: its
    /// result comes to `client` too. Nor is one whose result waits in `client`'s inbox: a client
    /// says what it wants before it takes what has finished, and a result that landed in between
    /// was decoded a second time.
    func want(_ requests: [DecodeRequest], for client: DecodeClient, urgent: Int = 0) {
        condition.lock()
        let wanted = Set(requests)
        for (request, var decode) in running {
            if wanted.contains(request) {
                decode.askers.insert(client)
                decode.wanting.insert(client)
            } else {
                decode.wanting.remove(client)
                if decode.wanting.isEmpty { decode.cancellation.cancel() }
            }
            running[request] = decode
        }
        wishes[client] = WishList(requests: requests, urgent: min(max(0, urgent), requests.count))
        merge()
        condition.unlock()
    }

    /// Puts `client`'s list (after every client's urgent requests) ahead of the others'; nothing
    /// is dropped or cancelled.
    func setFront(_ client: DecodeClient) {
        condition.lock()
        front = client
        merge()
        condition.unlock()
    }

    /// Says whether the scene on screen moves. While it does, only the pager's urgent requests
    /// (the photo shown) go to the focus workers, at the process's priority; the grid's and the
    /// strip's visible cells are made by the lowered workers, first among their requests, so the
    /// frames drawn meanwhile do not share a core as equals with them. Without this, over the
    /// timeline frames of a `riffle-bench library` run the app's thread spent 0.6 s runnable
    /// while a worker at its own priority held the core (`perf record -e sched:sched_switch`).
    func setSceneMoves(_ moves: Bool) {
        condition.lock()
        if sceneMoves != moves {
            sceneMoves = moves
            merge()
        }
        condition.unlock()
    }

    /// The results finished for `client` since its last call, in finishing order.
    func takeResults(for client: DecodeClient) -> [DecodeResult<Output>] {
        condition.lock()
        defer { condition.unlock() }
        return inboxes.removeValue(forKey: client) ?? []
    }

    /// Blocks until nothing is pending or running for any client (results may wait in the
    /// inboxes).
    func waitUntilIdle() {
        condition.lock()
        while !pending.isEmpty || !running.isEmpty { condition.wait() }
        condition.unlock()
    }

    /// Stops the workers after their current decode; pending requests are dropped.
    func shutdown() {
        condition.lock()
        stopping = true
        pending.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// Stack of a decode thread: decoding keeps its pixels on the heap; libjpeg's frames and
    /// the Swift ones above them take a few tens of KiB.
    static var workerStackBytes: Int { 1 << 20 }

    /// How many nice levels below the process the workers that take any request and the quick
    /// lane's run (Linux per-thread; `WorkerThread.niceness(below:)`): prefetch and thumbnails
    /// must not take the cores from the frame loop or from the photo on screen, or a decode
    /// finishing mid-slide drops frames; 5 gives a frame thread three times such a decoder's
    /// share (CFS weights 1024 vs 335), not all of it, since neighbours must still land before
    /// a slide reaches them. The focus workers are never lowered.
    static var prefetchNicenessOffset: Int32 { 5 }

    /// Rebuilds `pending` from the wish lists (the lock held) and wakes the workers.
    private func merge() {
        let clients = [front] + DecodeClient.allCases.filter { $0 != front }
        var order: [DecodeRequest] = []
        var wanting: [DecodeRequest: Set<DecodeClient>] = [:]
        var urgent: Set<DecodeRequest> = []
        func add(_ requests: ArraySlice<DecodeRequest>, of client: DecodeClient, isUrgent: Bool) {
            let waiting = inboxes[client].map { Set($0.map(\.request)) } ?? []
            for request in requests where running[request] == nil && !waiting.contains(request) {
                if wanting[request] == nil { order.append(request) }
                wanting[request, default: []].insert(client)
                if isUrgent { urgent.insert(request) }
            }
        }
        // The pager's urgent requests (its focused photo) before any other's: a photo opened
        // from the grid comes before the grid's visible cells, though the grid is still in front.
        // While the scene moves, the other clients' urgent requests keep their place but not
        // their urgency (the focus workers leave them).
        for client in [.pager] + clients.filter({ $0 != .pager }) {
            if let list = wishes[client] { add(list.requests.prefix(list.urgent), of: client, isUrgent: client == .pager || !sceneMoves) }
        }
        for client in clients {
            if let list = wishes[client] { add(list.requests.dropFirst(list.urgent), of: client, isUrgent: false) }
        }
        pending = order.map { ($0, wanting[$0]!, urgent.contains($0)) }
        condition.broadcast()
    }

    private func work(_ lane: Lane) {
        while true {
            condition.lock()
            func next() -> Int? {
                switch lane {
                case .any: hasFocusWorkers ? pending.firstIndex { !$0.isUrgent } : pending.indices.first
                case .quick: pending.firstIndex(where: \.request.isQuick)
                case .urgent: pending.firstIndex(where: \.isUrgent)
                }
            }
            while next() == nil && !stopping { condition.wait() }
            if stopping {
                condition.unlock()
                return
            }
            let (request, clients, _) = pending.remove(at: next()!)
            let cancellation = DecodeCancellation(isFocused: lane == .urgent)
            running[request] = Running(cancellation: cancellation, askers: clients, wanting: clients)
            condition.unlock()

            let start = clock()
            let output = decode(request, cancellation)
            let seconds = clock() - start

            condition.lock()
            let askers = running.removeValue(forKey: request)?.askers ?? []
            let result = DecodeResult(request: request, output: output, seconds: seconds)
            for client in askers { inboxes[client, default: []].append(result) }
            // Done: off every wish list, so another client's `want` (which merges all the lists
            // again) never runs it twice before its askers have taken the result in and said
            // what they want now.
            for client in Array(wishes.keys) {
                guard var list = wishes[client], let at = list.requests.firstIndex(of: request) else { continue }
                list.requests.remove(at: at)
                if at < list.urgent { list.urgent -= 1 }
                wishes[client] = list
            }
            condition.broadcast()
            condition.unlock()
            onResult()
        }
    }
}
