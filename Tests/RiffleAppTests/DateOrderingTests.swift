import Dispatch
import Foundation
@testable import RiffleApp
@testable import RiffleImageIO
@testable import RiffleIndex
@testable import RiffleLibrary
import RiffleTestSupport
import Testing

/// A library of a tree of folders is one timeline: ordered by date taken (oldest first, same
/// dates and undated photos in listed order, the undated last), reordered as dates are learned
/// with every photo keeping its identity, and the start photo following its photo; a folder with
/// no folders in it opens as it always has.
@Suite struct DateOrderingTests {
    /// A date-ordered library of `names` in folders "/a" (the first two) and "/b" (the rest).
    static func tree(_ names: [String]) -> PhotoLibrary {
        let paths = names.enumerated().map { ($0.offset < 2 ? "/a/" : "/b/") + $0.element }
        return PhotoLibrary(
            listing: Photo.numbered(paths), ordering: .byDateTaken, startIndex: 0, description: "/", unavailable: [], missing: [],
            pathCount: 1, folders: [ListedFolder(path: "/a", range: 0..<2), ListedFolder(path: "/b", range: 2..<names.count)],
            tree: "/")
    }

    static func day(_ day: Int64) -> TakenDate { TakenDate(localSeconds: day * 86_400, source: .exif) }

    static func names(_ library: PhotoLibrary) -> [String] { library.photos.map { FilePaths.name(of: $0.path) } }

    @Test func datesOrderTheTimelineOldestFirstTheUndatedLast() {
        let library = Self.tree(["p", "q", "r", "s", "t"])
        #expect(Self.names(library) == ["p", "q", "r", "s", "t"], "listed order while no date is known")
        let update = library.dating([PhotoID(0): Self.day(30), PhotoID(1): Self.day(10), PhotoID(3): Self.day(10), PhotoID(4): Self.day(20)])
        // q and s share a day: listed order between them; r has no date yet: last.
        #expect(Self.names(update.library) == ["q", "s", "t", "p", "r"])
        #expect(update.library.photos.map(\.id) == [1, 3, 4, 0, 2].map { PhotoID($0) }, "identities follow the photos")
        #expect(update.index(ofOld: 0) == 3 && update.index(ofOld: 2) == 4)
        #expect(!update.changesNothing)
        // A date forgotten (its file gone) sends the photo back among the undated.
        let forgotten = update.library.dating([PhotoID(1): nil])
        #expect(Self.names(forgotten.library) == ["s", "t", "p", "q", "r"])
    }

    @Test func theStartPhotoFollowsItsPhoto() {
        let library = Self.tree(["p", "q", "r"])
        var opened = library.dating([:]).library
        opened = PhotoLibrary(
            listing: opened.listing, ordering: .byDateTaken, startIndex: 2, description: "/", unavailable: [], missing: [], pathCount: 1,
            folders: opened.folders, tree: "/")
        let update = opened.dating([PhotoID(2): Self.day(1), PhotoID(0): Self.day(2), PhotoID(1): Self.day(3)])
        #expect(update.library.startIndex == 0, "r, the start photo, is now the oldest")
        #expect(update.library.photos[update.library.startIndex].id == PhotoID(2))
    }

    @Test func aFolderChangeKeepsTheDatesOfThePhotosThatStay() {
        let dated = Self.tree(["p", "q", "r"]).dating([PhotoID(0): Self.day(3), PhotoID(1): Self.day(1), PhotoID(2): Self.day(2)]).library
        #expect(Self.names(dated) == ["q", "r", "p"])
        let update = dated.applying([FolderChange(folder: "/b", arrived: ["new"], departed: [])])
        // The arrival is undated until the index dates it: after the rest.
        #expect(Self.names(update.library) == ["q", "r", "p", "new"])
        #expect(update.library.dates.count == 3)
    }

    @Test func aFolderWithFoldersOpensAsItsWholeTreeByDate() throws {
        let tree = try DatedTree(photo: TestPaths.photos + "/2 friends.jpg", dates: [
            "2019/b.jpg": "2022:12:24 20:00:00", "2019/summer/a.jpg": "2021:03:04 10:00:00", "phone/d.jpg": "2018:05:05 08:00:00",
            "c.jpg": "2019:07:01 09:00:00", ".hidden/x.jpg": "2000:01:01 00:00:00",
        ])
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: [tree.root], problems: &problems)
        #expect(problems.isEmpty)
        #expect(library.tree == tree.root && library.ordering == .byDateTaken)
        #expect(Set(Self.names(library)) == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"], "every photo of the tree, dot-folders skipped")
        var options = SessionOptions(thumbnailFolder: nil)
        options.libraryIndexPath = nil
        options.viewSettingsPath = nil
        let headless = HeadlessSession([tree.root], options: options)
        headless.session.scene.settleDecodes()
        #expect(Self.names(headless.session.scene.library) == ["d.jpg", "c.jpg", "a.jpg", "b.jpg"])
        #expect(WindowTitle.grid(library: headless.session.scene.library) == "\(FilePaths.name(of: tree.root)) — 4 photos")
    }

    /// A warm timeline's first cells are in the order of the files' times until the dates the
    /// index held arrive: the grid asks for no thumbnail of them meanwhile (they took the cores
    /// from the recall), and once the dates are in order, for every cell in view. The index's
    /// rows come from the launch's read ahead, held here until the test lets it through.
    @Test func aTimelineAsksForNoThumbnailUntilTheIndexedDatesAreInOrder() throws {
        let tree = try DatedTree(photo: TestPaths.photos + "/2 friends.jpg", dates: [
            "2019/b.jpg": "2022:12:24 20:00:00", "2019/summer/a.jpg": "2021:03:04 10:00:00", "phone/d.jpg": "2018:05:05 08:00:00",
            "c.jpg": "2019:07:01 09:00:00",
        ])
        let database = tree.root + "-index.sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) } }
        let index = LibraryIndex(path: database, report: { _ in })
        var problems: [String] = []
        for folder in PhotoTree.folders(under: tree.root, problems: &problems) { _ = FolderIndexing.index(folder, in: index) }
        let gate = DispatchSemaphore(value: 0)
        var options = SessionOptions.inMemory
        options.libraryIndexPath = database
        let root = tree.root
        options.indexReadAhead = TreeReadAhead(index: index) {
            gate.wait()
            return index.readTree(under: root)
        }
        let headless = HeadlessSession([tree.root], options: options)
        defer { gate.signal() }
        let scene = headless.session.scene, store = headless.session.pipeline.thumbnailStore
        // Sorted in off the app's thread, as 20,000 photos and more are.
        scene.reorderOffThreadFrom = 0
        func frames(from start: Int) {
            for k in start..<start + 5 {
                scene.advance(to: Double(k) / 60)
                _ = scene.renderIfNeeded(presentedAt: nil)
                store.waitForThumbnails()
            }
        }
        frames(from: 0)
        let photos = scene.library.photos
        #expect(photos.count == 4)
        #expect(scene.dating?.isRecalling == true, "the first recall takes the rows read ahead, and waits for them")
        #expect(photos.allSatisfy { if case .waiting = store.state(of: $0.id) { true } else { false } }, "a thumbnail asked for before the dates")
        gate.signal()
        eventually {
            scene.advance(to: 5.0 / 60)
            return scene.indexedDates != .awaited
        }
        #expect(scene.indexedDates == .sorting, "the recalled dates are being sorted in")
        store.waitForThumbnails()
        #expect(photos.allSatisfy { if case .waiting = store.state(of: $0.id) { true } else { false } }, "a thumbnail asked for while sorting")
        scene.settleDates()
        #expect(scene.indexedDates == .inOrder)
        frames(from: 6)
        #expect(Self.names(scene.library) == ["d.jpg", "c.jpg", "a.jpg", "b.jpg"])
        #expect(scene.library.photos.allSatisfy { if case .thumbnail = store.state(of: $0.id) { true } else { false } })
    }

    /// A first launch (an empty index) recalls nothing: the grid asks for its thumbnails as soon
    /// as that is known, not once every file's head has been read.
    @Test func aFirstLaunchsTimelineAsksForThumbnailsAtOnce() throws {
        let tree = try DatedTree(photo: TestPaths.photos + "/2 friends.jpg", dates: [
            "2019/b.jpg": "2022:12:24 20:00:00", "phone/d.jpg": "2018:05:05 08:00:00", "c.jpg": nil,
        ])
        let headless = HeadlessSession([tree.root])
        let scene = headless.session.scene, store = headless.session.pipeline.thumbnailStore
        #expect(scene.indexedDates == .awaited)
        eventually { scene.dating?.isRecalling == false }
        scene.advance(to: 0)
        #expect(scene.indexedDates == .inOrder, "nothing was recalled: nothing to wait for")
        for k in 1...5 {
            _ = scene.renderIfNeeded(presentedAt: nil)
            store.waitForThumbnails()
            scene.advance(to: Double(k) / 60)
        }
        #expect(scene.library.photos.allSatisfy { if case .thumbnail = store.state(of: $0.id) { true } else { false } })
    }

    @Test func aFolderWithoutFoldersOpensAsBefore() throws {
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: [TestPaths.photos], problems: &problems)
        #expect(library.tree == nil && library.ordering == .asListed)
        #expect(Self.names(library).first == "1 coffee.png")
    }
}
