import Dispatch
import Synchronization

/// The bytes of one slow clipboard target (a photo's PNG: a full decode and an encode, half a
/// second for 6 megapixels), made once on a background thread so that the window's thread keeps
/// drawing frames and answering other requests meanwhile. ICCCM lets the owner answer a
/// SelectionRequest whenever it is ready (section 2.2: the requestor waits for the
/// SelectionNotify, https://x.org/releases/X11R7.7/doc/xorg-docs/icccm/icccm.html), so the window
/// answers the requests waiting for these bytes once `result` is there.
///
/// Invariants: `produce` runs at most once, never on the thread that calls `start`; `result` is
/// nil until it returns, then the same value for good; `wake` is called once, after `result` is
/// set, unless `cancel()` came first, after which it is never called and `result` stays nil.
final class BackgroundConversion: Sendable {
    /// Where the conversion is in its life.
    private enum State {
        case idle
        case running
        case finished([UInt8]?)
        case cancelled
    }

    private let state = Mutex(State.idle)
    private let produce: @Sendable (_ isCancelled: @Sendable () -> Bool) -> [UInt8]?

    /// A conversion that will make its bytes with `produce`, which may consult `isCancelled`
    /// between its steps and give up (return nil) once it holds.
    init(produce: @escaping @Sendable (_ isCancelled: @Sendable () -> Bool) -> [UInt8]?) {
        self.produce = produce
    }

    /// Starts making the bytes on a background thread, unless started (or cancelled) already;
    /// `wake` is called on that thread once they are ready (it must be safe from any thread).
    func start(wake: @escaping @Sendable () -> Void) {
        let starts = state.withLock { state -> Bool in
            guard case .idle = state else { return false }
            state = .running
            return true
        }
        guard starts else { return }
        // A paste is something the user waits for, yet less urgent than the frames: below the
        // window's thread, above the idle prefetch.
        DispatchQueue.global(qos: .utility).async { [self] in
            let bytes = produce { [self] in isCancelled }
            // Under the lock: a `cancel()` that returned has seen no wake and will see none.
            state.withLock { state in
                guard case .running = state else { return }
                state = .finished(bytes)
                wake()
            }
        }
    }

    /// The bytes once made (nil inside: they could not be, the photo being unreadable); nil
    /// while they are being made, before `start` and after `cancel`.
    var result: [UInt8]?? {
        state.withLock { state in
            if case let .finished(bytes) = state { return .some(bytes) }
            return nil
        }
    }

    /// True once `cancel()` has been called.
    var isCancelled: Bool {
        state.withLock { state in
            if case .cancelled = state { return true }
            return false
        }
    }

    /// Gives the bytes up: the offer they belong to was replaced or taken. A running `produce`
    /// learns it through `isCancelled`; its result is dropped and `wake` not called.
    func cancel() {
        state.withLock { $0 = .cancelled }
    }
}
