/// A library after folder changes, beside the library before: the photos that stayed keep their
/// `PhotoID` (a renamed one too), so everything held of a photo follows it by identity; only the
/// views' orderings (the grid's cells, the pager's pages) need its old and new places.
package struct LibraryUpdate: Sendable {
    /// The library before the change.
    let before: PhotoLibrary
    /// The library after the change.
    package let library: PhotoLibrary
    /// The photos whose files were written anew: decoded again.
    package let rewritten: Set<PhotoID>

    /// Where the photo shown at index `old` before ends up.
    package enum Place: Equatable, Sendable {
        /// It is still there, at this index now.
        case same(Int)
        /// It is gone; the next photo that stayed takes its place, at this index now.
        case next(Int)
        /// It is gone and no photo after it stayed; the previous one that stayed, at this index.
        case previous(Int)
        /// No photo stayed (the library may still hold new ones): index 0.
        case none
    }

    /// The place of the photo shown at old index `old`: itself, else the first photo after it
    /// that stayed, else the last one before it that stayed.
    package func place(ofPhotoAt old: Int) -> Place {
        guard before.photos.indices.contains(old) else { return .none }
        if let now = index(ofOld: old) { return .same(now) }
        if let now = (old + 1..<before.photos.count).lazy.compactMap(index(ofOld:)).first { return .next(now) }
        if let now = (0..<old).reversed().lazy.compactMap(index(ofOld:)).first { return .previous(now) }
        return .none
    }

    /// The index now of the photo at old index `old` (nil when it is gone or `old` is no index).
    package func index(ofOld old: Int) -> Int? {
        before.order.photo(at: old).flatMap { library.order.index(of: $0.id) }
    }

    /// The photos of the library after the change whose heads `PhotoProbe` is to read: those
    /// that arrived in a listed folder and those written anew, taken by their extension
    /// (`PhotoLibrary.isProbed`), once whole (a file still growing is probed when it is closed,
    /// which rewrites it).
    package var photosToProbe: [Photo] {
        library.folders.flatMap { listed in
            library.listing[listed.range].filter { photo in
                (rewritten.contains(photo.id) || !before.order.contains(photo.id)) && !photo.isArriving && library.isProbed(photo)
            }
        }
    }

    /// True when nothing moved, arrived, left, was renamed or was rewritten: nothing to follow
    /// (a photo dated anew is a change, even where it stays: the bars name the dates; so is a
    /// folder taken in with no photos yet, which the library must list to follow).
    package var changesNothing: Bool {
        rewritten.isEmpty && before.photos == library.photos && before.dates == library.dates && before.folders == library.folders
    }
}

extension PhotoLibrary {
    /// This library after `changes`: in each listed folder a change names, the departed names
    /// leave, the arrived names not listed yet are inserted in natural order, each a photo met
    /// for the first time (a new `PhotoID`) but a renamed one, which keeps its identity
    /// (`NaturalOrder.areInIncreasingOrder`, so the folder's run equals
    /// `NaturalOrder.sorted` of its names), and the rest keep their order; photos outside the
    /// folders (files named on their own) stay. A rewritten photo is arriving while its file is
    /// growing and whole once it is closed (`Photo.isArriving`); the others keep their state. The start photo follows its photo
    /// (`LibraryUpdate.place(ofPhotoAt:)`). Pure: reads no file.
    package func applying(_ changes: [FolderChange]) -> LibraryUpdate {
        var byFolder: [String: FolderChange] = [:]
        for change in changes {
            var merged = byFolder[change.folder] ?? FolderChange(folder: change.folder)
            merged.arrived.formUnion(change.arrived)
            merged.departed.formUnion(change.departed)
            merged.rewritten.formUnion(change.rewritten)
            merged.growing.formUnion(change.growing)
            merged.renamed += change.renamed
            byFolder[change.folder] = merged
        }
        var photos: [Photo] = []
        photos.reserveCapacity(listing.count)
        var rewritten: Set<PhotoID> = []
        var folders: [ListedFolder] = []
        var next = 0
        var nextID = self.nextID.number
        /// A photo met for the first time at `path`.
        func arrival(_ path: String) -> Photo {
            defer { nextID += 1 }
            return Photo(id: PhotoID(nextID), path: path)
        }
        /// Copies old photos `range` (outside any folder that changed) unchanged.
        func keep(_ range: Range<Int>) { photos += listing[range] }
        for listed in self.folders {
            keep(next..<listed.range.lowerBound)
            next = listed.range.upperBound
            let start = photos.count
            guard let change = byFolder[listed.path], !change.isEmpty else {
                keep(listed.range)
                folders.append(ListedFolder(path: listed.path, range: start..<photos.count))
                continue
            }
            let kept = listed.range.filter { !change.departed.contains(FilePaths.name(of: listing[$0].path)) }
            let keptNames = kept.map { FilePaths.name(of: listing[$0].path) }
            let listedNames = Set(keptNames)
            let added = NaturalOrder.sorted(Array(change.arrived.subtracting(listedNames)))
            // Where each added name goes among the kept ones: after every kept name that sorts
            // before it (binary search; the added names are sorted, so the places never fall).
            var insertions: [Int] = []
            var low = 0
            for name in added {
                var high = keptNames.count
                while low < high {
                    let middle = (low + high) / 2
                    if NaturalOrder.areInIncreasingOrder(keptNames[middle], name) { low = middle + 1 } else { high = middle }
                }
                insertions.append(low)
            }
            var addedIndex: [String: Int] = [:]
            var a = 0
            for (k, old) in kept.enumerated() {
                while a < added.count && insertions[a] == k {
                    addedIndex[added[a]] = photos.count
                    photos.append(arrival(FilePaths.join(listed.path, added[a])))
                    a += 1
                }
                photos.append(listing[old])
            }
            while a < added.count {
                addedIndex[added[a]] = photos.count
                photos.append(arrival(FilePaths.join(listed.path, added[a])))
                a += 1
            }
            let range = start..<photos.count
            let keptIDs = Set(kept.map { listing[$0].id })
            for rename in change.renamed {
                guard let old = listed.range.first(where: { FilePaths.name(of: listing[$0].path) == rename.from }),
                      !keptIDs.contains(listing[old].id), let now = addedIndex[rename.to] else { continue }
                photos[now] = Photo(id: listing[old].id, path: photos[now].path)
            }
            for index in range where change.rewritten.contains(FilePaths.name(of: photos[index].path)) {
                rewritten.insert(photos[index].id)
                photos[index].isArriving = change.growing.contains(FilePaths.name(of: photos[index].path))
            }
            folders.append(ListedFolder(path: listed.path, range: range))
        }
        keep(next..<listing.count)
        let kept = Set(photos.map(\.id))
        let library = PhotoLibrary(
            listing: photos, ordering: ordering, dates: dates.filter(kept.contains), startIndex: 0,
            description: description, unavailable: unavailable, missing: missing, pathCount: pathCount, folders: folders,
            tree: tree, nextID: PhotoID(nextID))
        return following(library, rewritten: rewritten)
    }

    /// This library with the folders `folders` of its tree (made or moved in while it is shown)
    /// listed after the rest, each of their photos met for the first time (a new `PhotoID`,
    /// undated until the index dates it); folders it lists already are left out. Pure.
    package func addingFolders(_ folders: [PhotoTree.Folder]) -> LibraryUpdate {
        let known = Set(self.folders.map(\.path))
        var listing = self.listing
        var listed = self.folders
        var nextID = self.nextID.number
        for folder in folders where !known.contains(folder.path) {
            let start = listing.count
            for path in folder.photos {
                listing.append(Photo(id: PhotoID(nextID), path: path))
                nextID += 1
            }
            listed.append(ListedFolder(path: folder.path, range: start..<listing.count))
        }
        let library = PhotoLibrary(
            listing: listing, ordering: ordering, dates: dates, startIndex: 0, description: description, unavailable: unavailable,
            missing: missing, pathCount: pathCount, folders: listed, tree: tree, nextID: PhotoID(nextID))
        return following(library, rewritten: [])
    }

    /// The update from this library to `library` (the same settings, photos changed or
    /// reordered), its start photo following this one's (`LibraryUpdate.place(ofPhotoAt:)`).
    func following(_ library: PhotoLibrary, rewritten: Set<PhotoID>) -> LibraryUpdate {
        var library = library
        library.opensOnPhoto = opensOnPhoto
        library.namedPhoto = namedPhoto
        let update = LibraryUpdate(before: self, library: library, rewritten: rewritten)
        switch update.place(ofPhotoAt: startIndex) {
        case let .same(index), let .next(index), let .previous(index): library = library.starting(at: index)
        case .none: break
        }
        return LibraryUpdate(before: self, library: library, rewritten: rewritten)
    }

    /// This library without `gone` (photos found to hold no image, `PhotoProbe`), exactly as if
    /// their files had been deleted from their folders (`applying(_:)` with them departed): the
    /// start photo follows, everything held of the others follows by identity. A photo no
    /// longer in the library, or listed under another path since (renamed), is left alone: what
    /// was probed is not what is there now. Pure: reads no file.
    package func removing(_ gone: [Photo]) -> LibraryUpdate {
        var byFolder: [String: FolderChange] = [:]
        // Folders' runs are places in the listing, which a timeline orders otherwise.
        let listed = Dictionary(listing.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        for photo in gone {
            guard let index = listed[photo.id], listing[index].path == photo.path,
                  let folder = folders.first(where: { $0.range.contains(index) })?.path else { continue }
            byFolder[folder, default: FolderChange(folder: folder)].departed.insert(FilePaths.name(of: photo.path))
        }
        return applying(byFolder.keys.sorted().compactMap { byFolder[$0] })
    }

    /// The same library starting at photo `index`.
    /// (A copy: its order is this one's, not sorted again.)
    private func starting(at index: Int) -> PhotoLibrary {
        var library = self
        library.startIndex = index
        return library
    }
}
