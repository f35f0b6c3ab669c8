/// The listed folders of a library, watched while the app runs: the watcher's events folded
/// into bursts (`FolderEvents`), each resolved against the file system as it is when the
/// burst ends. Used from the app's thread only (the watcher has a thread of its own).
package final class LiveFolders {
    private let watcher: FolderWatcher
    private var events = FolderEvents()

    /// Watches `library`'s listed folders, waking the app's loop with `wake` when something
    /// happens in them; nil when it has none or inotify cannot be had.
    package init?(library: PhotoLibrary, wake: @escaping @Sendable () -> Void) {
        let folders = Array(Set(library.folders.map(\.path))).sorted()
        guard !folders.isEmpty, let watcher = FolderWatcher(folders: folders, wake: wake) else { return nil }
        self.watcher = watcher
    }

    /// When the burst under way is to be taken in (the loop must wake then); nil when none is.
    package var wakeTime: Double? { events.deadline }

    /// Takes in the watcher's events at clock time `now`; the changes of a burst that has
    /// ended, read from the folders now, for `library` as it is; nil while there is none.
    package func changes(at now: Double, in library: PhotoLibrary) -> [FolderChange]? {
        events.record(watcher.takeEvents(), at: now)
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

    /// Stops watching.
    package func stop() { watcher.stop() }
}
