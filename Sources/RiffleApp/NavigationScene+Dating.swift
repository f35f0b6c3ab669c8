import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RiffleIndex
import RiffleInteraction
import RiffleLibrary
import RifflePipeline

/// A timeline's dates in the scene: the folders the index dates, the dates it learns taken in
/// (the library reordered by them), and the folders that arrive in the tree.
extension NavigationScene {
    /// The folders of `library` named in `names` (every folder when nil) as whole folders to
    /// date: each with the photos of its run in the listing.
    static func datingFolders(of library: PhotoLibrary, named names: Set<String>? = nil) -> [LibraryDating.Folder] {
        library.folders.filter { names?.contains($0.path) ?? true }.map { folder in
            LibraryDating.Folder(
                path: folder.path, photos: folder.range.map { (library.listing[$0].id, library.listing[$0].path) }, isWhole: true)
        }
    }

    /// Takes in the dates the dating has learned and reorders the library by them: when
    /// `datingInterval` has passed since the last reorder, when the dating is done, (`all`)
    /// now, and at once for the dates the index held at launch (`indexedDates`).
    func applyDates(all: Bool) {
        guard let dating, !reorder.isBusy else { return }
        // Asked before the take: once the recall is over, its dates are among those taken.
        let recalled = indexedDates == .awaited && !dating.isRecalling
        pendingDates.append(contentsOf: dating.takeDates())
        aspects.append(contentsOf: dating.takeShapes())
        // Each shape learned again is appended: kept to the latest of each photo.
        if aspects.count > 2 * library.photos.count { aspects = aspects.latest { _, _ in true } }
        guard recalled || (!pendingDates.isEmpty && (all || now - datesAppliedAt >= Self.datingInterval || dating.progress.isDone))
        else { return }
        // Only dates that change something: a reorder of 100,000 photos costs tens of milliseconds
        // of the app's thread, which a date learned again must not.
        let dates = pendingDates.latest { id, date in library.dates[id] != date }
        pendingDates = PhotoValues()
        if recalled { indexedDates = .inOrder }
        guard !dates.isEmpty else { return }
        datesAppliedAt = now
        if !all, library.photos.count >= reorderOffThreadFrom {
            reorder.start(library, generation: libraryGeneration, dates: dates)
            if recalled { indexedDates = .sorting }
        } else {
            follow(library.dating(dates))
        }
    }

    /// Applies a reorder finished off the app's thread to the library it began from; when the
    /// library changed meanwhile, its dates wait to be sorted in anew.
    func takeReorder() {
        guard let result = reorder.take() else { return }
        if indexedDates == .sorting { indexedDates = .inOrder }
        if result.generation == libraryGeneration {
            follow(result.update)
        } else {
            var dates = result.dates
            dates.append(contentsOf: pendingDates)
            pendingDates = dates
        }
    }

    /// Takes the folders `paths`, made or moved into the tree while it is shown, into the library
    /// with every folder under them: their photos appear, their folders are watched, their
    /// photos dated.
    func takeIn(folders paths: [String]) {
        var problems: [String] = []
        let walked = paths.flatMap { PhotoTree.folders(under: $0, skipping: PhotoLibrary.foldersNeverWalked, problems: &problems) }
        for problem in problems { StandardError.write("riffle: \(problem)") }
        let update = library.addingFolders(walked)
        follow(update)
        probe.add(update.photosToProbe)
        liveFolders?.watch(walked.map(\.path), at: now)
        dating?.date(Self.datingFolders(of: library, named: Set(walked.map(\.path))))
    }

    /// Stops dating the library (a scene replaced by another).
    func stopDating() { dating?.stop() }

    /// True when every photo of the library has a date (a timeline the index has dated, if not
    /// yet verified every file of), or the library is not a timeline.
    public var isDated: Bool { library.ordering != .byDateTaken || library.dates.count == library.photos.count }

    /// Blocks until the index has dated every photo of a timeline, then reorders by the dates
    /// (nothing for a folder's grid).
    public func settleDates() {
        dating?.waitUntilDone()
        reorder.waitUntilIdle()
        takeReorder()
        applyDates(all: true)
    }
}
