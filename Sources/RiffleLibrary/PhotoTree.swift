import Glibc
import RiffleImageIO

/// The folders of a photo tree: a root and every folder under it, depth first, each folder's
/// subfolders in natural order, each with its photos (`PhotoLibrary.listFolder`'s rule: not
/// hidden, an image by extension or content, in natural order).
///
/// - Dot-folders are skipped: they hold caches (`.thumbnails`, `.sh_thumbnails`), trash and a
///   version control's files, never a person's photos. So are the folders in `skipping` (the
///   user's thumbnail cache, `$XDG_CACHE_HOME/thumbnails`, wherever it lies).
/// - Symbolic links to folders are followed, but each real folder is listed once: folders are
///   known by device and inode, so a link back up the tree, or a second way to a folder
///   already listed, is not walked again. A loop of links therefore ends.
/// - A folder that cannot be listed is named in `problems`, and the walk goes on.
package enum PhotoTree {
    /// One folder of the tree and its photos.
    package struct Folder: Equatable, Sendable {
        /// The folder's path, under the root as the walk reached it.
        package let path: String
        /// Paths of its photos, in natural order.
        package let photos: [String]
    }

    /// Every folder under `root` (itself included) holding photos or not, in walk order.
    ///
    /// The folders are listed on every core (`listings`), then walked in order over what was
    /// listed: the same folders, photos and problems, in the same order, as one thread walking
    /// alone (`riffle-bench library`, 100,000 photos in 2,131 folders on two cores: 73–110 ms,
    /// against 142–192 ms on one).
    package static func folders(under root: String, skipping: Set<String> = [], problems: inout [String]) -> [Folder] {
        let listed = listings(under: root, skipping: skipping)
        var seen = Set<FolderIdentity>()
        var folders: [Folder] = []
        var pending = [root]
        while let folder = pending.popLast() {
            // A folder reached first, in the listing, by another way (a link) is listed here.
            var listing = listed[folder] ?? Listing(path: folder)
            guard let identity = listing.identity, seen.insert(identity).inserted else { continue }
            if listing.content == nil { listing.content = list(folder, skipping: skipping) }
            switch listing.content {
            case .failure(let error):
                problems.append("\(folder): cannot list the folder (\(error.reason))")
            case .success(let content):
                folders.append(Folder(path: folder, photos: content.photos))
                // Popped from the end: pushed in reverse, they are walked in natural order.
                pending += content.subfolders.reversed()
            case nil:
                break
            }
        }
        return folders
    }

    /// What one folder holds: its photos' and its subfolders' paths, each in natural order.
    private struct Content: Sendable {
        let photos: [String]
        let subfolders: [String]
    }

    /// A folder's identity (nil when it is no folder) and, once listed, what it holds or why it
    /// could not be listed.
    private struct Listing: Sendable {
        let identity: FolderIdentity?
        var content: Result<Content, FilePaths.FolderError>?

        init(path: String) { identity = FolderIdentity(path: path) }
    }

    /// Lists `folder`: its photos and subfolders (not hidden, not in `skipping`).
    private static func list(_ folder: String, skipping: Set<String>) -> Result<Content, FilePaths.FolderError> {
        let entries: [FilePaths.Entry]
        do throws(FilePaths.FolderError) {
            entries = try FilePaths.entries(inFolder: folder)
        } catch {
            return .failure(error)
        }
        var subfolders: [String] = []
        var photos: [String] = []
        for entry in entries where !entry.name.hasPrefix(".") {
            // Each photo's path is made once, after the sort: a walk of 100,000 photos made
            // each three times (here, in `isPhoto` and after the sort).
            switch entry.kind ?? FilePaths.kind(of: FilePaths.join(folder, entry.name)) {
            case .directory?:
                if !skipping.contains(FilePaths.join(folder, entry.name)) { subfolders.append(entry.name) }
            case .file?:
                if PhotoLibrary.isPhoto(named: entry.name, in: folder, kind: .file) { photos.append(entry.name) }
            case nil:
                break
            }
        }
        return .success(Content(
            photos: NaturalOrder.sorted(photos).map { FilePaths.join(folder, $0) },
            subfolders: NaturalOrder.sorted(subfolders).map { FilePaths.join(folder, $0) }))
    }

    /// Every folder reachable from `root`, listed by the calling thread and one more a core
    /// (up to four in all), each taking the next folder found: each real folder is listed once,
    /// under the first path a thread reached it by, which need not be the walk's first.
    private static func listings(under root: String, skipping: Set<String>) -> [String: Listing] {
        let shared = SharedListing(root: root)
        let helpers = min(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 4) - 1
        for _ in 0..<max(0, helpers) {
            shared.joined()
            WorkerThread.start(stackBytes: 1 << 20, nicenessOffset: nil) { shared.work(skipping: skipping) }
        }
        shared.joined()
        shared.work(skipping: skipping)
        return shared.allListed()
    }

    /// The listing threads' shared state, under its lock: the folders found and not yet taken,
    /// how many threads are at work, the identities claimed, and what was listed.
    private final class SharedListing: @unchecked Sendable {
        private let lock = ConditionLock()
        private var found: [String]
        private var listing = 0
        private var threads = 0
        private var claimed = Set<FolderIdentity>()
        private var listed: [String: Listing] = [:]

        init(root: String) { found = [root] }

        /// One more thread will work.
        func joined() { lock.withLock { threads += 1 } }

        /// Takes folders and lists them until none is left and none is being listed.
        func work(skipping: Set<String>) {
            while let folder = next() {
                var entry = Listing(path: folder)
                let isFirst = lock.withLock { entry.identity.map { claimed.insert($0).inserted } ?? false }
                if isFirst { entry.content = PhotoTree.list(folder, skipping: skipping) }
                lock.withLock {
                    listed[folder] = entry
                    if case .success(let content)? = entry.content { found += content.subfolders }
                    listing -= 1
                    lock.broadcast()
                }
            }
            lock.withLock {
                threads -= 1
                lock.broadcast()
            }
        }

        /// The next folder to list; nil once none is left and no thread may find more.
        private func next() -> String? {
            lock.withLock {
                while found.isEmpty && listing > 0 { lock.wait() }
                guard let folder = found.popLast() else { return nil }
                listing += 1
                return folder
            }
        }

        /// What was listed, once every thread has stopped.
        func allListed() -> [String: Listing] {
            lock.withLock {
                while threads > 0 { lock.wait() }
                return listed
            }
        }
    }

    /// A folder's device and inode (following links): two paths to one folder share it.
    private struct FolderIdentity: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64

        init?(path: String) {
            var status = stat()
            guard FileSystemPath.withSystemPath(path, { stat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                return nil
            }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }
}
