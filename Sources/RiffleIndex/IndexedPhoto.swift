import RiffleImageIO
import RiffleLibrary

/// What the index knows of one photo file: the stamp it had when it was read, and what was
/// read (its facts, or why they could not be read), with the date it sorts by.
package struct IndexedPhoto: Equatable, Sendable {
    /// The file's name in its folder.
    package var name: String
    /// Device and inode, size and modification time (nanoseconds) when it was read: a file
    /// whose four are unchanged is the same file, never read again.
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    package var modifiedNanoseconds: Int64
    /// What its head said; nil when it could not be read as an image (`failure` says why).
    package var facts: PhotoFacts?
    /// When it was taken: the file's own date, else its modification time in this machine's
    /// zone (`TakenDate.Source.fileModified`).
    package var taken: TakenDate
    /// Why its head could not be read as an image, when it could not.
    package var failure: String?

    /// The photo with these parts.
    package init(
        name: String, device: UInt64, inode: UInt64, size: Int64, modifiedNanoseconds: Int64, facts: PhotoFacts?,
        taken: TakenDate, failure: String?
    ) {
        self.name = name
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.facts = facts
        self.taken = taken
        self.failure = failure
    }

    /// True when `stamp` is the stamp this photo was read with.
    package func isCurrent(_ stamp: FileStamp) -> Bool {
        stamp.device == device && stamp.inode == inode && stamp.size == size && stamp.modifiedNanoseconds == modifiedNanoseconds
    }
}
