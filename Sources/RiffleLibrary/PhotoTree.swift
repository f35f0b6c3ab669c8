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
    package static func folders(under root: String, skipping: Set<String> = [], problems: inout [String]) -> [Folder] {
        var seen = Set<FolderIdentity>()
        var folders: [Folder] = []
        var pending = [root]
        while let folder = pending.popLast() {
            guard let identity = FolderIdentity(path: folder), seen.insert(identity).inserted else { continue }
            let entries: [FilePaths.Entry]
            do throws(FilePaths.FolderError) {
                entries = try FilePaths.entries(inFolder: folder)
            } catch {
                problems.append("\(folder): cannot list the folder (\(error.reason))")
                continue
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
            folders.append(Folder(path: folder, photos: NaturalOrder.sorted(photos).map { FilePaths.join(folder, $0) }))
            // Popped from the end: pushed in reverse, they are walked in natural order.
            pending += NaturalOrder.sorted(subfolders).reversed().map { FilePaths.join(folder, $0) }
        }
        return folders
    }

    /// A folder's device and inode (following links): two paths to one folder share it.
    private struct FolderIdentity: Hashable {
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
