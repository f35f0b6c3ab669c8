import RiffleImageIO
import RiffleLibrary

/// Dates a library's photos from the index on a worker thread of its own, so that a timeline
/// settles into the order photos were taken while the app draws on: frames never wait for it.
/// A thread starts at the app's priority for its first recall, then lowers itself to the
/// workers' low priority to survey and read.
///
/// Work comes as folders with the photos of each to date (`date(_:)`), in three passes:
/// 0. Recall, one query: every photo the index holds in those folders takes its indexed date at
///    once, before any file is looked at (a warm library is in date order within a query's time;
///    the survey then corrects a photo whose file changed since).
/// 1. Survey, quick: each folder's rows are read from the index and each photo is stat(2)ed. A
///    photo whose stamp is the one indexed takes the indexed date; any other takes its file's
///    modification time for now (`FolderIndexing.modificationDate`) and waits for the second
///    pass. Photos the index holds that the folder no longer has are forgotten.
/// 2. Read, slow: the head of each photo left (never its pixels) is read and recorded
///    (`FolderIndexing.read`), and it takes its own date.
///
/// Every folder is surveyed before any photo is read, so a warm library has all its dates after
/// the survey and a cold one has an order (by modification time) at once. What is learned waits
/// in `takeDates()` for the app's thread; `wake` is called when the first of it arrives after a
/// take, and when the work is done.
package final class LibraryDating: @unchecked Sendable {
    /// One folder's photos to date: their identities and paths.
    package struct Folder: Sendable {
        package let path: String
        package let photos: [(id: PhotoID, path: String)]
        /// True when `photos` are all the folder's photos: the indexed ones it lacks are gone
        /// from the folder, and forgotten.
        package let isWhole: Bool

        package init(path: String, photos: [(id: PhotoID, path: String)], isWhole: Bool) {
            self.path = path
            self.photos = photos
            self.isWhole = isWhole
        }
    }

    /// How far the dating has come: photos whose own date is known (or found missing) of all
    /// photos given so far.
    package struct Progress: Equatable, Sendable {
        package var dated = 0
        package var total = 0

        /// True when every photo given has been surveyed and read.
        package var isDone: Bool { dated == total }
    }

    private let index: LibraryIndex
    private let wake: @Sendable () -> Void
    private let lock = ConditionLock()
    /// Under `lock`: folders waiting for their survey, photos waiting for their read (by folder),
    /// dates learned and not yet taken, progress, whether the thread is running, and stop.
    private var surveys: [Folder] = []
    /// Folders given whose index rows are still to be recalled.
    private var recalls: [Folder] = []
    /// What the recall read of each folder, photo by photo (nil: a folder the index did not
    /// know, such as one holding only folders), with the paths it was read for: the survey's
    /// "known" when its folder lists those paths, so it queries no more. The worker's own (only
    /// its thread touches it).
    private var recalled: [String: (paths: [String], found: RecalledFolder?)] = [:]
    private var reads: [(folder: String, photos: [(id: PhotoID, path: String, stamp: FileStamp)], gone: [String])] = []
    private var learned = PhotoValues<TakenDate?>()
    private var shapes = PhotoValues<Double>()
    private var counts = Progress()
    private var running = false
    private var stopped = false
    /// True from a recall's taking until its dates are handed over.
    private var recalling = false

    /// What a launch read of the index while the tree was walked: the first recall matches
    /// the listing to it instead of reading the index. The worker's own.
    private var readAhead: TreeReadAhead?

    /// A dating over `index`; `wake` wakes the app's loop (called from the worker thread). The
    /// first recall takes its rows from `readAhead` when given (the launch read them while the
    /// tree was walked).
    package init(index: LibraryIndex, readAhead: TreeReadAhead? = nil, wake: @escaping @Sendable () -> Void) {
        self.index = index
        self.readAhead = readAhead
        self.wake = wake
    }

    /// Dates `folders`' photos (again, for a photo already given: a rewritten file).
    package func date(_ folders: [Folder]) {
        let folders = folders.filter { !$0.photos.isEmpty || $0.isWhole }
        guard !folders.isEmpty else { return }
        let start = lock.withLock {
            guard !stopped else { return false }
            surveys += folders
            recalls += folders
            counts.total += folders.reduce(0) { $0 + $1.photos.count }
            defer { running = true }
            return !running
        }
        // At the app's priority until its first recall is done (`work`): the first frame in date
        // order waits on it, and at the workers' priority it shared two cores with the probe and
        // the thumbnails (100,000 photos: 108 ms of work took 500 ms).
        if start { WorkerThread.start(stackBytes: 1 << 20, nicenessOffset: nil) { [self] in work() } }
    }

    /// The dates learned since the last take, in the order learned (nil: the photo's file is
    /// gone).
    package func takeDates() -> PhotoValues<TakenDate?> {
        lock.withLock {
            defer { learned = PhotoValues() }
            return learned
        }
    }

    /// The aspect ratios (upright width over height, as the file's head gives it) learned since
    /// the last take, in the order learned: what the aspect-ratio grid lays photos out by.
    package func takeShapes() -> PhotoValues<Double> {
        lock.withLock {
            defer { shapes = PhotoValues() }
            return shapes
        }
    }

    /// How far the dating has come.
    package var progress: Progress { lock.withLock { counts } }

    /// True while folders given wait for their recall or it runs: the indexed dates they have
    /// are not yet handed over.
    package var isRecalling: Bool { lock.withLock { !stopped && (!recalls.isEmpty || recalling) } }

    /// Blocks until every folder given has been surveyed and read (replays, which must not
    /// depend on the machine's speed).
    package func waitUntilDone() {
        lock.withLock { while running && !stopped { lock.wait() } }
    }

    /// Stops after the folder under way; what is learned after is dropped.
    package func stop() {
        lock.withLock {
            stopped = true
            lock.broadcast()
        }
    }

    // MARK: - The worker

    private func work() {
        while let job = nextJob() {
            switch job {
            case let .recall(folders):
                recall(folders)
                WorkerThread.lowerCurrentThread()
            case let .survey(folder): survey(folder)
            case let .read(folder, photos, gone): read(folder: folder, photos: photos, gone: gone)
            }
        }
    }

    private enum Job {
        case recall([Folder])
        case survey(Folder)
        case read(folder: String, photos: [(id: PhotoID, path: String, stamp: FileStamp)], gone: [String])
    }

    /// The next job, surveys first; nil (and the thread ends) when there is none or the dating
    /// stopped.
    private func nextJob() -> Job? {
        let job: Job? = lock.withLock {
            if !stopped, !recalls.isEmpty {
                defer { recalls.removeAll() }
                recalling = true
                return .recall(recalls)
            }
            if !stopped, !surveys.isEmpty { return .survey(surveys.removeFirst()) }
            if !stopped, !reads.isEmpty {
                let next = reads.removeFirst()
                return .read(folder: next.folder, photos: next.photos, gone: next.gone)
            }
            running = false
            lock.broadcast()
            return nil
        }
        // The app learns that the work is done (its progress line goes).
        if job == nil { wake() }
        return job
    }

    /// Every indexed photo of `folders` dated as the index has it, in one read of the index.
    private func recall(_ folders: [Folder]) {
        let listed = folders.map { ($0.path, $0.photos.map(\.path)) }
        let found = readAhead.map { $0.take().recall(listed) } ?? index.recall(listed)
        readAhead = nil
        var dates = PhotoValues<TakenDate?>()
        var shapes = PhotoValues<Double>()
        let count = folders.reduce(0) { $0 + $1.photos.count }
        dates.reserveCapacity(count)
        shapes.reserveCapacity(count)
        for (folder, known) in zip(folders, found) {
            recalled[folder.path] = (folder.photos.map(\.path), known)
            guard let known else { continue }
            for (photo, indexed) in zip(folder.photos, known.photos) {
                guard let indexed else { continue }
                dates.append(photo.id, indexed.taken)
                if let aspect = indexed.aspect { shapes.append(photo.id, aspect) }
            }
        }
        publish(dates, shapes: shapes, dated: 0) { recalling = false }
    }

    private func survey(_ folder: Folder) {
        let paths = folder.photos.map(\.path)
        // What the recall read lines up with this listing only when it was read for it (a folder
        // dated again before its survey was recalled for its later listing).
        var fromRecall: RecalledFolder?
        var isRecalled = false
        if let entry = recalled[folder.path], entry.paths == paths {
            (fromRecall, isRecalled) = (entry.found, true)
            recalled[folder.path] = nil
        }
        let known = fromRecall
            ?? (isRecalled ? nil : index.recall([(folder.path, paths)])[0])
            ?? RecalledFolder(photos: Array(repeating: nil, count: folder.photos.count), unlisted: [])
        var dates = PhotoValues<TakenDate?>()
        var shapes = PhotoValues<Double>()
        var unread: [(id: PhotoID, path: String, stamp: FileStamp)] = []
        // Indexed photos whose files are gone, with the indexed names the folder no longer lists.
        var gone = known.unlisted
        for (photo, indexed) in zip(folder.photos, known.photos) {
            guard let stamp = FileStamp.current(ofFileAt: photo.path) else {
                dates.append(photo.id, nil)
                if indexed != nil { gone.append(FilePaths.name(of: photo.path)) }
                continue
            }
            if let indexed, indexed.isCurrent(stamp) {
                // The recall handed this date over already: the app need not sort by it again.
                guard fromRecall == nil else { continue }
                dates.append(photo.id, indexed.taken)
                if let aspect = indexed.aspect { shapes.append(photo.id, aspect) }
            } else {
                dates.append(photo.id, FolderIndexing.modificationDate(nanoseconds: stamp.modifiedNanoseconds))
                unread.append((photo.id, photo.path, stamp))
            }
        }
        // Only a whole folder's survey knows which indexed names are gone from it.
        if !folder.isWhole { gone = [] }
        publish(dates, shapes: shapes, dated: folder.photos.count - unread.count) {
            if !unread.isEmpty || !gone.isEmpty { reads.append((folder.path, unread, gone)) }
        }
    }

    private func read(folder: String, photos: [(id: PhotoID, path: String, stamp: FileStamp)], gone: [String]) {
        let read = photos.map { FolderIndexing.read(path: $0.path, stamp: $0.stamp) }
        index.record(read, forgetting: gone, inFolder: folder)
        var dates = PhotoValues<TakenDate?>()
        var shapes = PhotoValues<Double>()
        for (photo, indexed) in zip(photos, read) {
            dates.append(photo.id, indexed.taken)
            if let aspect = indexed.facts.flatMap({ LibraryIndex.aspect(width: $0.uprightSize.width, height: $0.uprightSize.height) }) {
                shapes.append(photo.id, aspect)
            }
        }
        publish(dates, shapes: shapes, dated: photos.count) {}
    }

    /// Hands `dates` (and `shapes`) to the app's thread, counting `dated` photos done, with `more` run under
    /// the lock; wakes the app when it had taken everything before.
    private func publish(_ dates: PhotoValues<TakenDate?>, shapes: PhotoValues<Double>, dated: Int, more: () -> Void) {
        let wasEmpty = lock.withLock {
            guard !stopped else { return false }
            let wasEmpty = learned.isEmpty
            learned.append(contentsOf: dates)
            self.shapes.append(contentsOf: shapes)
            counts.dated += dated
            more()
            return wasEmpty
        }
        if wasEmpty { wake() }
    }
}
