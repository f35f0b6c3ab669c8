import RiffleImageIO

/// Looks inside the photos a folder listing took by their names alone, on a thread of its own at
/// the workers' low priority (`WorkerThread`), and reports those whose first bytes announce no
/// image at all (a text file named `notes.jpg`): the library then drops them as if their files
/// had been deleted (`PhotoLibrary.removing(_:)`), so the grid counts only photos.
///
/// Listing stays a `readdir` and a look at each name (`PhotoLibrary.listFolder`): opening 100,000
/// files as they are listed would hold the first frame back by as many reads (the `folder`
/// benchmark prints both figures). The probe reads each file's head after the window is up, and
/// even the choice of which files to read is made on its thread: at 100,000 photos, filtering
/// their names alone takes tens of milliseconds the first frame must not wait for.
///
/// Invariants:
/// - Only the first `ImageFormat.signatureLength` bytes of each file are read, read-only
///   (`FileBytes.read`); nothing is ever written, made or renamed.
/// - A photo is reported only when bytes were read and `ImageFormat.detect` names no format in
///   them. A file whose signature is an image's but whose body is damaged stays (its cell shows
///   "!"); so do a file that cannot be read (its cell says why), one that is gone (the folder's
///   watcher reports that), and an empty one (a copy that has not written its first bytes yet).
/// - Each photo handed in is probed once, in the order given; `take` hands each reported photo
///   over once. A photo handed in again (its file written anew) is judged by its last probe
///   only: a report of an earlier one not taken yet, or still being read, is dropped.
package final class PhotoProbe: @unchecked Sendable {
    /// The probe thread's stack: a 64-byte read and a signature match need little.
    private static let stackBytes = 256 << 10

    /// One photo to probe, with the generation of the `add` that asked (0: the first list).
    private typealias Request = (photo: Photo, generation: Int)

    private let lock = ConditionLock()
    /// Photos handed in by `add`, waiting to be probed, in order (guarded by `lock`).
    private var waiting: [Request] = []
    /// Index of the next request of `waiting` to probe (guarded by `lock`).
    private var next = 0
    /// The generation of the last `add` (guarded by `lock`).
    private var generation = 0
    /// The generation that last asked for each photo handed to `add` (guarded by `lock`): only
    /// the probe asked for last reports. A photo of the first list not in it was asked for once.
    private var latest: [PhotoID: Int] = [:]
    /// True while the thread is probing (guarded by `lock`).
    private var running = false
    /// Set by `stop()`: the thread ends before its next photo (guarded by `lock`).
    private var stopped = false
    /// Photos found not to be images and not yet taken (guarded by `lock`).
    private var found: [Photo] = []
    private let wake: @Sendable () -> Void
    private let isImage: @Sendable (String) -> Bool

    /// Starts probing at once the photos `photos` returns, called on the probe's thread (a
    /// library's `photosToProbe`); `wake` is called from that thread each time it finds one that
    /// is not an image, so the app's loop takes it in. `isImage` tells whether the file at a path
    /// may be an image (`PhotoProbe.mayBeImage` unless a test counts the reads).
    package init(
        photos: @escaping @Sendable () -> [Photo], wake: @escaping @Sendable () -> Void,
        isImage: @escaping @Sendable (String) -> Bool = { PhotoProbe.mayBeImage(atPath: $0) }
    ) {
        self.wake = wake
        self.isImage = isImage
        running = true
        WorkerThread.start(stackBytes: Self.stackBytes) { [self] in run(first: photos()) }
    }

    /// Probes `photos` too, after those handed in before (the live folders' arrivals, and photos
    /// whose files were written anew); a thread starts when none is running. Nothing once stopped.
    package func add(_ photos: [Photo]) {
        guard !photos.isEmpty else { return }
        let start: Bool = lock.withLock {
            guard !stopped else { return false }
            generation += 1
            let added = Set(photos.map(\.id))
            found.removeAll { added.contains($0.id) }
            for photo in photos {
                latest[photo.id] = generation
                waiting.append((photo, generation))
            }
            guard !running else { return false }
            running = true
            return true
        }
        if start { WorkerThread.start(stackBytes: Self.stackBytes) { [self] in run(first: []) } }
    }

    /// False only when the file at `path` was read and its first bytes are no image's signature
    /// (`ImageFormat.detect`); true for an image's signature, an empty file and one that cannot
    /// be read (see the invariants above).
    package static func mayBeImage(atPath path: String) -> Bool {
        guard let head = try? FileBytes.read(atPath: path, upTo: ImageFormat.signatureLength), !head.isEmpty else { return true }
        return ImageFormat.detect(head) != nil
    }

    /// The photos found not to be images since the last call, in the order probed; never blocks.
    package func take() -> [Photo] {
        lock.withLock {
            defer { found.removeAll() }
            return found
        }
    }

    /// True while photos are left to probe.
    package var isProbing: Bool { lock.withLock { running } }

    /// Waits until every photo handed in has been probed (or the probe was stopped): a replay's
    /// frames then never depend on how fast the probe reads.
    package func settle() {
        lock.withLock {
            while running { lock.wait() }
        }
    }

    /// Stops probing before the next photo; `settle` returns once the photo being read is done.
    package func stop() {
        lock.withLock { stopped = true }
    }

    /// Probes `first` (the first list, kept on this thread: a hundred thousand photos are not
    /// copied under the lock the app's thread takes each frame), then the photos `add` hands in,
    /// in order, until none is left or the probe is stopped.
    private func run(first: [Photo]) {
        var index = 0
        while let request = lock.withLock({ () -> Request? in
            guard !stopped else { return finish() }
            if index < first.count {
                defer { index += 1 }
                return (first[index], 0)
            }
            guard next < waiting.count else { return finish() }
            defer { next += 1 }
            return waiting[next]
        }) {
            let image = isImage(request.photo.path)
            let report: Bool = lock.withLock {
                // A later probe of the same photo is asked for: it reports instead.
                guard !image, (latest[request.photo.id] ?? 0) == request.generation else { return false }
                found.append(request.photo)
                return true
            }
            if report { wake() }
        }
    }

    /// Ends the thread's run (the lock held): nothing is left to probe. Returns nil.
    private func finish() -> Request? {
        running = false
        waiting = []
        next = 0
        latest = [:]
        lock.broadcast()
        return nil
    }
}
