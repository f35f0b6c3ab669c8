import Glibc
import RiffleImageIO

/// What tells that a file is still the one that was read: its device and inode (a file replaced
/// by a rename is another one), its size, and its modification and status-change times to the
/// nanosecond (a rewrite in place moves them). Equal stamps before and after a read mean that
/// the bytes read are one state of the file, not a mix of two.
package struct FileStamp: Hashable {
    package let device: UInt64
    package let inode: UInt64
    package let size: Int64
    let modified: [Int]
    let changed: [Int]

    /// The modification time in nanoseconds since 1970.
    package var modifiedNanoseconds: Int64 { Int64(modified[0]) * 1_000_000_000 + Int64(modified[1]) }

    /// The stamp of the file at `path` now (following symbolic links); nil when it cannot be
    /// reached.
    package static func current(ofFileAt path: String) -> FileStamp? {
        var status = stat()
        guard FileSystemPath.withSystemPath(path, { stat($0, &status) }) == 0 else { return nil }
        return FileStamp(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modified: [status.st_mtim.tv_sec, status.st_mtim.tv_nsec], changed: [status.st_ctim.tv_sec, status.st_ctim.tv_nsec])
    }
}
