import Glibc
import RiffleImageIO
import RiffleLibrary

/// Brings the index up to date with one folder of a photo tree: a photo whose stamp (device,
/// inode, size, modification time) is the one the index holds is taken from the index without
/// touching its file; any other is read (its head only, `PhotoFacts`, never its pixels) and
/// recorded; photos the index holds that the folder no longer has are forgotten.
package enum FolderIndexing {
    /// The photos of `folder` as the index now knows them, in the folder's order (photos that
    /// vanished between the listing and their stat left out), and how many files were read.
    package static func index(_ folder: PhotoTree.Folder, in index: LibraryIndex) -> (photos: [IndexedPhoto], read: Int) {
        let known = index.photos(inFolder: folder.path)
        var photos: [IndexedPhoto] = []
        var changed: [IndexedPhoto] = []
        for path in folder.photos {
            guard let stamp = FileStamp.current(ofFileAt: path) else { continue }
            let name = FilePaths.name(of: path)
            if let photo = known[name], photo.isCurrent(stamp) {
                photos.append(photo)
            } else {
                let photo = read(path: path, stamp: stamp)
                photos.append(photo)
                changed.append(photo)
            }
        }
        let names = Set(photos.map(\.name))
        let gone = known.keys.filter { !names.contains($0) }
        if !changed.isEmpty || !gone.isEmpty { index.record(changed, forgetting: gone, inFolder: folder.path) }
        return (photos, changed.count)
    }

    /// The file at `path`, whose stamp is `stamp`, read: its head's facts, or why they could not
    /// be read, and its date (its own, else its modification time).
    package static func read(path: String, stamp: FileStamp) -> IndexedPhoto {
        var facts: PhotoFacts?
        var failure: String?
        do {
            let head = try FileBytes.read(atPath: path, upTo: ImageCodecs.headBytes)
            facts = try PhotoFacts.read(head: head, path: path)
        } catch {
            failure = error.reason
        }
        return IndexedPhoto(
            name: FilePaths.name(of: path), device: stamp.device, inode: stamp.inode, size: stamp.size,
            modifiedNanoseconds: stamp.modifiedNanoseconds, facts: facts,
            taken: facts?.taken ?? modificationDate(nanoseconds: stamp.modifiedNanoseconds), failure: failure)
    }

    /// A modification time as a date taken: the wall-clock time in this machine's zone at that
    /// instant (localtime(3), its tm_gmtoff the offset), marked as not the photo's own.
    package static func modificationDate(nanoseconds: Int64) -> TakenDate {
        var seconds = time_t(nanoseconds / 1_000_000_000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        let offset = Int(parts.tm_gmtoff)
        return TakenDate(localSeconds: Int64(seconds) + Int64(offset), offsetMinutes: offset / 60, source: .fileModified)
    }
}
