/// The listed folders of a library, watched while the app runs: the watcher's events folded
/// into bursts (`FolderEvents`), each resolved against the file system as it is when the
/// burst ends. Used from the app's thread only (the watcher has a thread of its own).
///
/// When the user's inotify watches run out (a big tree, or other programs holding many), the
/// folders left unwatched are said once through `report` and listed anew every
/// `rescanInterval` instead: their changes arrive late, never not at all. Folders that arrive in
/// a watched folder are handed over (`takeArrivedFolders`) for a tree's library to take in and
/// `watch`.
package final class LiveFolders {
    /// Seconds between two listings of the folders inotify could not watch: slow, as a fallback
    /// should be (a tree of 2,000 folders is listed in well under a second, every half minute).
    package static let rescanInterval = 30.0

    private let watcher: FolderWatcher
    private var events = FolderEvents()
    /// Folders made or moved into watched folders and not yet taken, full paths.
    private var arrivedFolders: [String] = []
    /// When the unwatched folders are next listed anew; nil while every folder is watched.
    private var nextRescan: Double?
    private let report: (String) -> Void
    private var reported = false

    /// Watches `library`'s listed folders, waking the app's loop with `wake` when something
    /// happens in them and saying through `report` when some cannot be watched; nil when it has
    /// none or inotify cannot be had at all. `addWatch` adds one watch (inotify's own, but for
    /// tests of a watch limit).
    package init?(
        library: PhotoLibrary, now: Double = 0, report: @escaping (String) -> Void = { _ in },
        addWatch: @escaping @Sendable (Int32, String) -> (watch: Int32, error: Int32) = FolderWatcher.inotifyAddWatch,
        wake: @escaping @Sendable () -> Void
    ) {
        let folders = Array(Set(library.folders.map(\.path))).sorted()
        guard !folders.isEmpty, let watcher = FolderWatcher(folders: folders, addWatch: addWatch, wake: wake) else { return nil }
        self.watcher = watcher
        self.report = report
        noteUnwatched(at: now)
    }

    /// When the loop must wake next: the burst under way's end, or the next listing of the
    /// unwatched folders; nil when neither is due.
    package var wakeTime: Double? { [events.deadline, nextRescan].compactMap { $0 }.min() }

    /// Takes in the watcher's events at clock time `now` (and, when due, lists the unwatched
    /// folders anew); the changes of a burst that has ended, read from the folders now, for
    /// `library` as it is; nil while there is none.
    package func changes(at now: Double, in library: PhotoLibrary) -> [FolderChange]? {
        let taken = watcher.takeEvents()
        for event in taken where event.kind == .folderArrived {
            arrivedFolders.append(FilePaths.join(event.folder, event.name))
        }
        events.record(taken, at: now)
        if let due = nextRescan, now >= due {
            events.record(watcher.beyondTheLimit.map { FolderWatcher.Event(folder: $0, name: "", kind: .relist) }, at: now)
            nextRescan = now + Self.rescanInterval
        }
        return events.take(
            at: now,
            listed: { folder in
                library.folders.filter { $0.path == folder }.flatMap { $0.range.map { FilePaths.name(of: library.listing[$0].path) } }
            },
            isPhoto: { folder, name in PhotoLibrary.isPhoto(named: name, in: folder) },
            listing: { folder in
                var problems: [String] = [], unavailable: [String] = []
                let photos = PhotoLibrary.listFolder(folder, problems: &problems, unavailable: &unavailable)
                return unavailable.isEmpty ? photos.map { FilePaths.name(of: $0) } : nil
            })
    }

    /// The folders that arrived in watched folders since the last call, full paths.
    package func takeArrivedFolders() -> [String] {
        defer { arrivedFolders.removeAll() }
        return arrivedFolders
    }

    /// Watches `folders` too (folders that arrived in a tree), from clock time `now`.
    package func watch(_ folders: [String], at now: Double) {
        watcher.watch(folders)
        noteUnwatched(at: now)
    }

    /// Stops watching.
    package func stop() { watcher.stop() }

    /// Says, once, that some folders are beyond the watch limit, and plans their listings.
    private func noteUnwatched(at now: Double) {
        let unwatched = watcher.beyondTheLimit
        guard !unwatched.isEmpty else { return }
        if nextRescan == nil { nextRescan = now + Self.rescanInterval }
        guard !reported else { return }
        reported = true
        report("riffle: the inotify watch limit is reached (fs.inotify.max_user_watches): \(unwatched.count) "
            + "\(unwatched.count == 1 ? "folder is" : "folders are") looked at every \(Int(Self.rescanInterval)) s instead of watched")
    }
}
