import Synchronization
@testable import RiffleApp
@testable import RiffleImageIO
@testable import RiffleLibrary
import Testing

/// A big library's reorder off the app's thread: the result is the reorder the app's thread
/// would have made, handed over once with the generation it began from; one runs at a time, and
/// the app is woken when it is ready.
@Suite struct LibraryReorderTests {
    @Test func theResultIsTheSameReorderHandedOverOnce() throws {
        let photos = Photo.numbered((0..<5_000).map { "/t/\($0).jpg" })
        let library = PhotoLibrary(
            listing: photos, ordering: .byDateTaken, startIndex: 0, description: "/t", unavailable: [], missing: [], pathCount: 1,
            folders: [ListedFolder(path: "/t", range: 0..<photos.count)], tree: "/t")
        var dates = PhotoValues<TakenDate?>()
        for photo in photos { dates.append(photo.id, TakenDate(localSeconds: Int64((photo.id.number * 7_919) % 5_003), source: .exif)) }
        let wakes = Atomic(0)
        let reorder = LibraryReorder(wake: { wakes.add(1, ordering: .sequentiallyConsistent) })
        #expect(reorder.start(library, generation: 7, dates: dates))
        #expect(!reorder.start(library, generation: 8, dates: dates), "one at a time")
        reorder.waitUntilIdle()
        #expect(reorder.isBusy, "finished and not yet taken")
        let result = try #require(reorder.take())
        #expect(result.generation == 7)
        // Compared as Bools: a failure names what differs, not 5,000 photos twice.
        let sameAsOnTheAppsThread = result.update.library.photos == library.dating(dates).library.photos
        let reordered = result.update.library.photos != photos
        #expect(sameAsOnTheAppsThread, "not the reorder the app's thread makes")
        #expect(reordered, "the dates did not reorder it")
        #expect(reorder.take() == nil && !reorder.isBusy)
        #expect(wakes.load(ordering: .sequentiallyConsistent) == 1)
    }
}
