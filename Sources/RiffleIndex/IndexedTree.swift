/// What the index held of a tree's folders when it was read (`LibraryIndex.readTree(under:)`):
/// each folder's photo rows in their names' byte order, its names' bytes in one buffer, so that
/// 100,000 rows are a few arrays and no string is made per photo.
package struct IndexedTree: Sendable {
    /// One folder's rows: row k's name is `names[nameEnds[k - 1]..<nameEnds[k]]` (from 0 for
    /// the first), its photo `photos[k]`.
    package struct Rows: Sendable {
        var names: [UInt8] = []
        var nameEnds: [Int] = []
        var photos: [RecalledPhoto] = []

        mutating func append(name: UnsafeBufferPointer<UInt8>, photo: RecalledPhoto) {
            names.append(contentsOf: name)
            nameEnds.append(names.count)
            photos.append(photo)
        }

        /// Gives `each` every row, in order: its name bytes (valid for the call) and its photo.
        func forEach(_ each: (UnsafeBufferPointer<UInt8>, () -> RecalledPhoto) -> Void) {
            names.withUnsafeBufferPointer { names in
                var start = 0
                for (end, photo) in zip(nameEnds, photos) {
                    each(UnsafeBufferPointer(rebasing: names[start..<end])) { photo }
                    start = end
                }
            }
        }
    }

    /// The rows of each folder the index knew, by the folder's path.
    package var folders: [String: Rows] = [:]

    /// What the index held of each folder's listed photos (`paths`), as `LibraryIndex.recall`
    /// gives it from the database: nil for a folder it did not know.
    package func recall(_ folders: [(path: String, paths: [String])]) -> [RecalledFolder?] {
        folders.map { folder in
            self.folders[folder.path].map { rows in LibraryIndex.matching(folder.paths) { each in rows.forEach(each) } }
        }
    }
}
