@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleTestSupport
import Testing

/// `PhotoLibrary.applying(_:)`: folder changes merged into the library, each photo keeping its
/// identity (`PhotoID`) at its new index, natural order kept. Pure: the libraries here name files
/// that do not exist.
@Suite struct LibraryUpdateTests {
    /// A library listing `names` of folder "/f" (in the order given, taken as natural).
    static func library(_ names: [String], folder: String = "/f", start: Int = 0) -> PhotoLibrary {
        let photos = Photo.numbered(names.map { folder + "/" + $0 })
        return PhotoLibrary(
            listing: photos, startIndex: start, description: folder, unavailable: [], missing: [], pathCount: 1,
            folders: [ListedFolder(path: folder, range: 0..<photos.count)])
    }

    static func names(_ library: PhotoLibrary) -> [String] { library.photos.map { FilePaths.name(of: $0.path) } }

    /// Where each photo of the library before is now (nil: gone).
    static func newIndices(_ update: LibraryUpdate) -> [Int?] { update.before.photos.indices.map(update.index(ofOld:)) }

    @Test func arrivalsGoInNaturalOrderAndThePhotoShownKeepsItsPlace() {
        let before = Self.library(["img1.jpg", "img3.jpg", "img10.jpg"])
        let update = before.applying([FolderChange(folder: "/f", arrived: ["img2.jpg", "img20.jpg", "IMG0.jpg"])])
        #expect(Self.names(update.library) == ["IMG0.jpg", "img1.jpg", "img2.jpg", "img3.jpg", "img10.jpg", "img20.jpg"])
        #expect(Self.names(update.library) == NaturalOrder.sorted(Self.names(update.library)))
        #expect(Self.newIndices(update) == [1, 3, 4])
        #expect(update.library.photos.map(\.id.number) == [3, 0, 4, 1, 2, 5], "the photos met before keep their identity; the new ones get new ones")
        // img3 was shown at index 1: it is at index 3 now.
        #expect(update.place(ofPhotoAt: 1) == .same(3))
        #expect(update.library.folders == [ListedFolder(path: "/f", range: 0..<6)])
    }

    @Test func departuresLeaveAndTheNextPhotoTakesTheDeletedOnesPlace() {
        let before = Self.library(["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
        let update = before.applying([FolderChange(folder: "/f", departed: ["b.jpg", "c.jpg"])])
        #expect(Self.names(update.library) == ["a.jpg", "d.jpg"])
        #expect(Self.newIndices(update) == [0, nil, nil, 1])
        #expect(update.place(ofPhotoAt: 1) == .next(1))
        #expect(update.place(ofPhotoAt: 3) == .same(1))
    }

    @Test func theLastPhotoDeletedGivesWayToThePreviousOne() {
        let update = Self.library(["a.jpg", "b.jpg", "c.jpg"]).applying([FolderChange(folder: "/f", departed: ["c.jpg"])])
        #expect(update.place(ofPhotoAt: 2) == .previous(1))
        let emptied = Self.library(["a.jpg"]).applying([FolderChange(folder: "/f", departed: ["a.jpg"])])
        #expect(emptied.library.photos.isEmpty)
        #expect(emptied.place(ofPhotoAt: 0) == .none)
    }

    @Test func aRenamedPhotoIsFollowedToItsNewPlace() {
        let before = Self.library(["a.jpg", "b.jpg", "c.jpg"])
        let change = FolderChange(
            folder: "/f", arrived: ["z.jpg"], departed: ["a.jpg"], renamed: [FolderChange.Rename(from: "a.jpg", to: "z.jpg")])
        let update = before.applying([change])
        #expect(Self.names(update.library) == ["b.jpg", "c.jpg", "z.jpg"])
        #expect(update.place(ofPhotoAt: 0) == .same(2))
        #expect(update.place(ofPhotoAt: 1) == .same(0))
        #expect(update.library.photos[2].id == before.photos[0].id, "a rename keeps the photo's identity")
        #expect(!update.changesNothing)
    }

    @Test func rewrittenPhotosAreNamedByTheirNewIndices() {
        let before = Self.library(["b.jpg", "c.jpg"])
        let update = before.applying([FolderChange(folder: "/f", arrived: ["a.jpg", "c.jpg"], rewritten: ["c.jpg"])])
        #expect(Self.names(update.library) == ["a.jpg", "b.jpg", "c.jpg"])
        #expect(update.rewritten == [before.photos[1].id])
        #expect(update.library.photos[2].id == before.photos[1].id)
        #expect(!update.changesNothing)
    }

    /// A photo written to and not closed arrives (`Photo.isArriving`), as does a new one still
    /// growing; its close makes it whole; photos the change does not name keep their state.
    @Test func growingPhotosAreArrivingUntilClosed() {
        let before = Self.library(["b.jpg", "c.jpg"])
        let growing = before.applying([FolderChange(
            folder: "/f", arrived: ["a.jpg", "c.jpg"], rewritten: ["a.jpg", "c.jpg"], growing: ["a.jpg", "c.jpg"])])
        #expect(growing.library.photos.map(\.isArriving) == [true, false, true])
        let other = growing.library.applying([FolderChange(folder: "/f", arrived: ["b.jpg"], rewritten: ["b.jpg"])])
        #expect(other.library.photos.map(\.isArriving) == [true, false, true], "only the photo named changes")
        let closed = other.library.applying([FolderChange(folder: "/f", arrived: ["c.jpg"], rewritten: ["c.jpg"])])
        #expect(closed.library.photos.map(\.isArriving) == [true, false, false])
        #expect(closed.rewritten == [closed.library.photos[2].id])
    }

    @Test func photosOutsideTheChangedFolderStay() {
        let first = Self.library(["x.jpg", "y.jpg"], folder: "/one")
        let photos = Photo.numbered(["/lone.png"] + first.photos.map(\.path) + ["/two/p.jpg"])
        let before = PhotoLibrary(
            listing: photos, startIndex: 0, description: "many", unavailable: [], missing: [], pathCount: 3,
            folders: [ListedFolder(path: "/one", range: 1..<3), ListedFolder(path: "/two", range: 3..<4)])
        let update = before.applying([FolderChange(folder: "/two", arrived: ["a.jpg"], departed: ["p.jpg"])])
        #expect(update.library.photos.map(\.path) == ["/lone.png", "/one/x.jpg", "/one/y.jpg", "/two/a.jpg"])
        #expect(Self.newIndices(update) == [0, 1, 2, nil])
        #expect(update.library.folders == [ListedFolder(path: "/one", range: 1..<3), ListedFolder(path: "/two", range: 3..<4)])
    }

    @Test func aChangeNamingNothingChangesNothing() {
        let update = Self.library(["a.jpg"]).applying([FolderChange(folder: "/f", arrived: ["a.jpg"])])
        #expect(update.changesNothing)
    }

    /// Any mix of arrivals and departures gives the natural order of the names that remain,
    /// and every photo that stayed maps to its own name.
    @Test(arguments: 0..<20) func anyChangeKeepsNaturalOrderAndFollowsEveryPhoto(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed))
        let pool = (0..<40).map { _ in "p\(random.next() % 60)_\(["a", "B", "c"][Int(random.next() % 3)]).jpg" }
        let listed = NaturalOrder.sorted(Array(Set(pool.prefix(20))))
        let before = Self.library(listed)
        let arrived = Set(pool.suffix(20).filter { _ in random.next() % 2 == 0 })
        let departed = Set(listed.filter { _ in random.next() % 3 == 0 }).subtracting(arrived)
        let update = before.applying([FolderChange(folder: "/f", arrived: arrived, departed: departed)])
        let expected = NaturalOrder.sorted(Array(Set(listed).subtracting(departed).union(arrived)))
        #expect(Self.names(update.library) == expected)
        for (old, name) in listed.enumerated() {
            if let now = update.index(ofOld: old) {
                #expect(Self.names(update.library)[now] == name)
            } else {
                #expect(departed.contains(name))
            }
        }
    }

    /// Photos the probe found to hold no image leave as deleted ones do, the start photo
    /// following.
    @Test func removingPhotosIsDeletingTheirFiles() {
        let before = Self.library(["a.jpg", "b.jpg", "c.jpg", "d.jpg"], start: 1)
        let update = before.removing([before.photos[1], before.photos[2]])
        #expect(Self.names(update.library) == ["a.jpg", "d.jpg"])
        #expect(update.library.photos.map(\.id) == [before.photos[0].id, before.photos[3].id])
        #expect(update.place(ofPhotoAt: 1) == .next(1))
        #expect(update.library.startIndex == 1)
        #expect(Self.names(update.library) == Self.names(before.applying([FolderChange(folder: "/f", departed: ["b.jpg", "c.jpg"])]).library))
        #expect(before.removing([]).changesNothing)
    }

    /// What was probed is not what is there now: a photo renamed since (b.jpg → e.jpg), another
    /// file having taken its old name, is left alone, and so is the newcomer.
    @Test func removingSkipsAPhotoNoLongerAtThePathProbed() {
        let before = Self.library(["a.jpg", "b.jpg"])
        let probed = before.photos[1]
        let renamed = before.applying([FolderChange(
            folder: "/f", arrived: ["e.jpg"], departed: ["b.jpg"], renamed: [FolderChange.Rename(from: "b.jpg", to: "e.jpg")])]).library
        let now = renamed.applying([FolderChange(folder: "/f", arrived: ["b.jpg"])]).library
        #expect(Self.names(now) == ["a.jpg", "b.jpg", "e.jpg"])
        #expect(now.order.photo(probed.id)?.path == "/f/e.jpg")
        #expect(now.removing([probed]).changesNothing)
    }
}
