import RiffleImageIO
import RiffleLibrary

/// What the index recalls of one listed photo (`LibraryIndex.recall`): the stamp its file had
/// when it was read, its date and its shape, and nothing a timeline's first order does not
/// need (no name, camera, lens or failure), so that 100,000 of them are a few megabytes.
package struct RecalledPhoto: Equatable, Sendable {
    /// Device and inode, size and modification time (nanoseconds) when it was read.
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    package var modifiedNanoseconds: Int64
    /// When it was taken, as `IndexedPhoto.taken`.
    package var taken: TakenDate
    /// Upright width over height, nil when its head gave no size.
    package var aspect: Double?

    /// True when `stamp` is the stamp this photo was read with.
    package func isCurrent(_ stamp: FileStamp) -> Bool {
        stamp.device == device && stamp.inode == inode && stamp.size == size && stamp.modifiedNanoseconds == modifiedNanoseconds
    }
}

/// What the index recalls of one folder's listed photos: for each, in the listing's order, what
/// the index holds (nil: nothing), and the names it holds that the listing lacks.
package struct RecalledFolder: Equatable, Sendable {
    package var photos: [RecalledPhoto?]
    package var unlisted: [String]
}
