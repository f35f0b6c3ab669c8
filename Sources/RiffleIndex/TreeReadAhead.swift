import Glibc
import RiffleLibrary

/// A launch's read of what the index holds under the tree it opens, begun before the tree is
/// walked and on a thread of its own, at the app's priority: the walk (100,000 photos: about
/// 140 ms) and the read (about 70 ms) take one core each, and the timeline's first recall then
/// only matches each folder's listing to the rows read (`LibraryDating`).
package final class TreeReadAhead: @unchecked Sendable {
    /// The index read, which the session goes on with.
    package let index: LibraryIndex
    private let lock = ConditionLock()
    /// Under `lock`: the rows, once read.
    private var tree: IndexedTree?

    /// Starts reading the index at `indexPath` under `root`; nil when there is no database
    /// there yet (a first launch: nothing to read, and the session makes it), or `root` is not
    /// a folder.
    package convenience init?(root: String, indexPath: String?, report: @escaping @Sendable (String) -> Void) {
        func isFolder(_ path: String) -> Bool? {
            var status = stat()
            return stat(path, &status) == 0 ? (status.st_mode & S_IFMT) == S_IFDIR : nil
        }
        guard let indexPath, isFolder(indexPath) == false, isFolder(root) == true else { return nil }
        let index = LibraryIndex(path: indexPath, report: report)
        self.init(index: index) { index.readTree(under: root) }
    }

    /// Starts `read`, rows of `index`, on a thread of its own.
    package init(index: LibraryIndex, read: @escaping @Sendable () -> IndexedTree) {
        self.index = index
        WorkerThread.start(stackBytes: 1 << 20, nicenessOffset: nil) { [self] in
            let read = read()
            lock.withLock {
                tree = read
                lock.broadcast()
            }
        }
    }

    /// The rows read, once the read is done (it blocks until then); only once: they are not
    /// kept after (an empty tree for a second call).
    package func take() -> IndexedTree {
        lock.withLock {
            while tree == nil { lock.wait() }
            defer { tree = IndexedTree() }
            return tree!
        }
    }
}
