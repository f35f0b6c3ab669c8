import Foundation
import Glibc
@testable import RiffleImageIO
@testable import RiffleIndex
@testable import RiffleLibrary
import RiffleTestSupport
import Testing

/// Dating a library's photos off the app's thread: every photo gets its own date (read from
/// its head and recorded), a photo whose stamp the index holds takes the indexed date without
/// its file being read, a changed file is read again, and a file gone is dated nil and
/// forgotten by the index.
@Suite struct LibraryDatingTests {
    static let photo = LibraryIndexTests.photos + "/2 friends.jpg"

    /// The civil time `text` ("2021:03:04 10:00:00") as `TakenDate.localSeconds`.
    static func seconds(_ text: String) -> Int64 {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == " " }).map { Int($0)! }
        var time = tm()
        time.tm_year = Int32(parts[0] - 1900)
        time.tm_mon = Int32(parts[1] - 1)
        time.tm_mday = Int32(parts[2])
        time.tm_hour = Int32(parts[3])
        time.tm_min = Int32(parts[4])
        time.tm_sec = Int32(parts[5])
        return Int64(timegm(&time))
    }

    /// Dates `tree`'s one folder `folder` through `index`, waiting until done; the dates by name.
    static func dates(of tree: DatedTree, folder: String = "", names: [String], index: LibraryIndex) -> [String: TakenDate?] {
        let path = folder.isEmpty ? tree.root : tree.root + "/" + folder
        let photos = names.enumerated().map { (id: PhotoID($0.offset), path: path + "/" + $0.element) }
        let dating = LibraryDating(index: index, wake: {})
        dating.date([LibraryDating.Folder(path: path, photos: photos, isWhole: true)])
        dating.waitUntilDone()
        #expect(dating.progress == LibraryDating.Progress(dated: names.count, total: names.count))
        // The last date learned of each photo.
        let learned = Dictionary(Array(dating.takeDates()), uniquingKeysWith: { _, later in later })
        #expect(dating.takeDates().isEmpty, "a date is handed over once")
        return Dictionary(uniqueKeysWithValues: photos.enumerated().map { (names[$0.offset], learned[$0.element.id] ?? nil) })
    }

    @Test func everyPhotoGetsItsOwnDate() throws {
        let tree = try DatedTree(photo: Self.photo, dates: ["a.jpg": "2022:12:24 20:00:00", "b.jpg": "2019:07:01 09:00:00", "c.jpg": nil])
        let index = LibraryIndex(path: nil, report: { _ in })
        let dates = Self.dates(of: tree, names: ["a.jpg", "b.jpg", "c.jpg"], index: index)
        #expect(dates["a.jpg"]??.localSeconds == Self.seconds("2022:12:24 20:00:00"))
        #expect(dates["a.jpg"]??.source == .exif)
        #expect(dates["b.jpg"]??.localSeconds == Self.seconds("2019:07:01 09:00:00"))
        // The undated one is dated by its file, as such.
        #expect(dates["c.jpg"]??.source == .fileModified)
        #expect(index.photos(inFolder: tree.root).count == 3, "what was read is recorded")
    }

    @Test func anIndexedPhotoIsNotReadAgainUntilItsFileChanges() throws {
        let tree = try DatedTree(photo: Self.photo, dates: ["a.jpg": "2022:12:24 20:00:00"])
        let index = LibraryIndex(path: nil, report: { _ in })
        _ = Self.dates(of: tree, names: ["a.jpg"], index: index)
        // The index says another date for the same stamp: a survey that read the file would
        // not give it.
        var indexed = try #require(index.photos(inFolder: tree.root)["a.jpg"])
        indexed.taken = TakenDate(localSeconds: 86_400, source: .xmp)
        index.record([indexed], inFolder: tree.root)
        #expect((Self.dates(of: tree, names: ["a.jpg"], index: index)["a.jpg"] ?? nil) == indexed.taken)
        // Rewritten: read again, its own date back.
        try DatedTree.setDateTaken("2023:01:02 03:04:05", of: tree.root + "/a.jpg")
        #expect(Self.dates(of: tree, names: ["a.jpg"], index: index)["a.jpg"]??.localSeconds == Self.seconds("2023:01:02 03:04:05"))
    }

    @Test func aFileGoneIsDatedNilAndForgotten() throws {
        let tree = try DatedTree(photo: Self.photo, dates: ["a.jpg": "2022:12:24 20:00:00", "b.jpg": "2019:07:01 09:00:00"])
        let index = LibraryIndex(path: nil, report: { _ in })
        _ = Self.dates(of: tree, names: ["a.jpg", "b.jpg"], index: index)
        try FileManager.default.removeItem(atPath: tree.root + "/b.jpg")
        let dates = Self.dates(of: tree, names: ["a.jpg", "b.jpg"], index: index)
        #expect(dates["b.jpg"] == .some(nil))
        #expect(dates["a.jpg"]??.localSeconds == Self.seconds("2022:12:24 20:00:00"))
        #expect(index.photos(inFolder: tree.root).keys.sorted() == ["a.jpg"])
    }
}
