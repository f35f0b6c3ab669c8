import Dispatch
import RiffleLibrary
import Synchronization

/// Reads the shown photo's details (`PhotoInfo(path:)`: its head, a stat, an animation's frames
/// counted) on a thread of its own, so that no frame waits on the file: the pager asks for the
/// photo it shows, draws what it has meanwhile (the name and position, which need no file), and
/// is woken when the details are there. Only the latest photo asked for is read: pages passed
/// on the way are not.
final class PhotoInfoReader: Sendable {
    /// A photo asked for, and its details once read.
    private struct State {
        var asked: (photo: PhotoID, path: String)?
        var reading = false
        var read: (photo: PhotoID, path: String, info: PhotoInfo)?
    }

    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)
    private let queue = DispatchQueue(label: "riffle.photo-info", qos: .utility)
    private let wake: @Sendable () -> Void
    private let read: @Sendable (String) -> PhotoInfo

    /// A reader whose finished reads call `wake` (from its thread): the app's loop then draws.
    /// `read` reads a file's details (a test's may wait for it to say so).
    init(wake: @escaping @Sendable () -> Void, read: @escaping @Sendable (String) -> PhotoInfo = { PhotoInfo(path: $0) }) {
        self.wake = wake
        self.read = read
    }

    /// The details of `photo` at `path` when they have been read; else nil, and they are asked
    /// for (replacing any photo asked for before that is not being read yet).
    func info(of photo: PhotoID, at path: String) -> PhotoInfo? {
        let start: Bool = state.withLock { state in
            if let read = state.read, read.photo == photo, read.path == path { return false }
            if let asked = state.asked, asked.photo == photo, asked.path == path { return false }
            state.asked = (photo, path)
            guard !state.reading else { return false }
            state.reading = true
            return true
        }
        if start { queue.async { self.readAsked() } }
        return state.withLock { state in
            guard let read = state.read, read.photo == photo, read.path == path else { return nil }
            return read.info
        }
    }

    /// Forgets what was read of `photo` (its file was written anew): it is read again when next
    /// asked for.
    func forget(_ photo: PhotoID) {
        state.withLock { state in
            if state.read?.photo == photo { state.read = nil }
        }
    }

    /// Waits until nothing is being read: a replay's frames then show the details of the photo
    /// they show, deterministically.
    func settle() {
        while state.withLock({ $0.reading }) { _ = done.wait(timeout: .now() + .milliseconds(50)) }
    }

    /// Reads the photo asked for, then any asked for meanwhile, until none is left.
    private func readAsked() {
        while let asked = state.withLock({ state -> (photo: PhotoID, path: String)? in
            guard let asked = state.asked else {
                state.reading = false
                return nil
            }
            state.asked = nil
            return asked
        }) {
            let info = read(asked.path)
            state.withLock { $0.read = (asked.photo, asked.path, info) }
            wake()
        }
        done.signal()
    }
}
