import Foundation
import Glibc
@testable import RiffleImageIO
@testable import RiffleIndex
@testable import RiffleLibrary
import RiffleTestSupport
import Synchronization
import Testing

/// The library's index as a cache: a file whose stamp is unchanged is never read again, a
/// changed or new one is, a gone one is forgotten; a damaged database is moved aside, one that
/// cannot be made or was made by a newer Riffle leaves the index in memory, and a second
/// process writing at the same time is waited for.
@Suite struct LibraryIndexTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Photos").path

    /// A scratch folder with `count` copies of a test photo, `p1.jpg` …, and a cache folder.
    final class Scratch {
        let root: String
        var tree: String { root + "/tree" }
        var database: String { root + "/cache/riffle/library.sqlite" }

        init(count: Int) throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-index-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root + "/tree", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/cache", withIntermediateDirectories: true)
            for i in 1...count {
                try FileManager.default.copyItem(atPath: LibraryIndexTests.photos + "/2 friends.jpg", toPath: tree + "/p\(i).jpg")
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        var folder: PhotoTree.Folder {
            var problems: [String] = []
            return PhotoTree.folders(under: tree, problems: &problems)[0]
        }
    }

    /// Collects what the index reports.
    final class Reports: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func hear(_ line: String) { lines.withLock { $0.append(line) } }
    }

    @Test func unchangedFilesAreNeverReadAgain() throws {
        let scratch = try Scratch(count: 3)
        let reports = Reports()
        var index = LibraryIndex(path: scratch.database, report: reports.hear)
        #expect(index.storage == .file(scratch.database))
        let first = FolderIndexing.index(scratch.folder, in: index)
        #expect(first.read == 3 && first.photos.map(\.name) == ["p1.jpg", "p2.jpg", "p3.jpg"])
        // What was read, as the index gives it back in a new run.
        index = LibraryIndex(path: scratch.database, report: reports.hear)
        let again = FolderIndexing.index(scratch.folder, in: index)
        #expect(again.read == 0)
        #expect(again.photos == first.photos)
        let facts = try #require(again.photos[0].facts)
        let head = try FileBytes.read(atPath: scratch.tree + "/p1.jpg", upTo: ImageCodecs.headBytes)
        let read = try PhotoFacts.read(head: head, path: nil)
        #expect(facts.format == read.format && facts.uprightSize == read.uprightSize && facts.camera == read.camera)
        // A file rewritten (a new modification time), one renamed, one deleted.
        setModificationTime(1_500_000_000, ofFileAt: scratch.tree + "/p1.jpg")
        try FileManager.default.moveItem(atPath: scratch.tree + "/p2.jpg", toPath: scratch.tree + "/q2.jpg")
        try FileManager.default.removeItem(atPath: scratch.tree + "/p3.jpg")
        let changed = FolderIndexing.index(scratch.folder, in: index)
        #expect(changed.read == 2, "the rewritten file and the renamed one")
        #expect(Set(index.photos(inFolder: scratch.tree).keys) == ["p1.jpg", "q2.jpg"])
        #expect(reports.all.isEmpty)
    }

    /// The tree read ahead (`readTree(under:)`, what a launch reads while it walks) recalls
    /// each listing as the database recalls it: the root and every folder under it, listed
    /// names matched, unlisted ones named apart; a folder beside the root whose name only
    /// begins with the root's is not read.
    @Test func aTreeReadAheadRecallsWhatTheIndexRecalls() throws {
        let scratch = try Scratch(count: 3)
        for folder in ["sub", "sub/deeper"] {
            try FileManager.default.createDirectory(atPath: scratch.tree + "/" + folder, withIntermediateDirectories: false)
            try FileManager.default.copyItem(atPath: LibraryIndexTests.photos + "/1 coffee.png", toPath: scratch.tree + "/\(folder)/c.png")
        }
        let beside = scratch.root + "/tree2"
        try FileManager.default.createDirectory(atPath: beside, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: LibraryIndexTests.photos + "/2 friends.jpg", toPath: beside + "/b.jpg")
        let index = LibraryIndex(path: scratch.database, report: { _ in })
        var problems: [String] = []
        for root in [scratch.tree, beside] {
            for folder in PhotoTree.folders(under: root, problems: &problems) { _ = FolderIndexing.index(folder, in: index) }
        }
        let tree = index.readTree(under: scratch.tree)
        #expect(Set(tree.folders.keys) == [scratch.tree, scratch.tree + "/sub", scratch.tree + "/sub/deeper"])
        let listings: [(path: String, paths: [String])] = [
            (scratch.tree, ["p3.jpg", "new.jpg", "p1.jpg"].map { scratch.tree + "/" + $0 }),
            (scratch.tree + "/sub", [scratch.tree + "/sub/c.png"]), (scratch.tree + "/sub/deeper", []),
            (beside, [beside + "/b.jpg"]),
        ]
        let ahead = tree.recall(listings), database = index.recall(listings)
        #expect(ahead[0] == database[0] && ahead[1] == database[1] && ahead[2] == database[2])
        // More folders than a recall looks up one by one: found in one pass over them all.
        let many = listings + Array(repeating: listings[1], count: 2) + (1...16).map { (scratch.root + "/elsewhere-\($0)", [String]()) }
        #expect(Set(many.map(\.path)).count > 16)
        let all = index.recall(many)
        #expect(all[0] == database[0] && all[1] == database[1] && all[2] == database[2] && all[3] == database[3])
        #expect(all[4] == database[1] && all[5] == database[1] && all[6...].allSatisfy { $0 == nil })
        #expect(ahead[0]?.unlisted == ["p2.jpg"] && ahead[0]?.photos.map { $0 != nil } == [true, false, true])
        #expect(ahead[2]?.unlisted == ["c.png"])
        #expect(ahead[3] == nil && database[3] != nil, "the folder beside the root is not read")
    }

    /// A launch's read ahead: none before the index exists (a first launch) or for a root that
    /// is no folder; once read, its rows are handed over once.
    @Test func aReadAheadStartsOnlyOverAnIndexAndHandsItsRowsOverOnce() throws {
        let scratch = try Scratch(count: 2)
        let first = TreeReadAhead(root: scratch.tree, indexPath: scratch.database, report: { _ in })
        #expect(first == nil, "no index yet")
        var problems: [String] = []
        let index = LibraryIndex(path: scratch.database, report: { _ in })
        for folder in PhotoTree.folders(under: scratch.tree, problems: &problems) { _ = FolderIndexing.index(folder, in: index) }
        let overAFile = TreeReadAhead(root: scratch.tree + "/p1.jpg", indexPath: scratch.database, report: { _ in })
        #expect(overAFile == nil, "not a folder")
        let started = TreeReadAhead(root: scratch.tree, indexPath: scratch.database, report: { _ in })
        let ahead = try #require(started)
        #expect(ahead.take().folders[scratch.tree]?.photos.count == 2)
        #expect(ahead.take().folders.isEmpty, "handed over once")
    }

    /// The dating's recall: each listed photo's stamp, date and shape as `photos(inFolder:)`
    /// gives them, matched by name whatever the listing's order (here not the names' byte
    /// order), nil for a photo the index lacks, the indexed names not listed named apart, and
    /// nil for a folder the index does not know.
    @Test func theRecallMatchesEachListedPhotoByName() throws {
        let scratch = try Scratch(count: 3)
        try FileManager.default.createDirectory(atPath: scratch.tree + "/sub", withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: LibraryIndexTests.photos + "/1 coffee.png", toPath: scratch.tree + "/sub/c.png")
        let index = LibraryIndex(path: scratch.database, report: { _ in })
        var problems: [String] = []
        for folder in PhotoTree.folders(under: scratch.tree, problems: &problems) { _ = FolderIndexing.index(folder, in: index) }
        let listed = ["p3.jpg", "new.jpg", "p1.jpg"]
        let recalled = index.recall([
            (scratch.tree, listed.map { scratch.tree + "/" + $0 }), (scratch.tree + "/sub", [scratch.tree + "/sub/c.png"]),
            (scratch.root + "/nowhere", [scratch.root + "/nowhere/x.jpg"]),
        ])
        #expect(recalled.count == 3)
        let twice = index.recall([(scratch.tree, [scratch.tree + "/p1.jpg"]), (scratch.tree, [scratch.tree + "/p2.jpg"])])
        #expect(twice.map { $0?.photos.map { $0 != nil } } == [[true], [true]], "a folder given twice is recalled for each listing")
        #expect(recalled[2] == nil, "a folder the index does not know")
        let root = try #require(recalled[0])
        #expect(root.unlisted == ["p2.jpg"])
        #expect(root.photos[1] == nil, "a photo the index lacks")
        let sub = try #require(recalled[1])
        #expect(sub.unlisted.isEmpty)
        for (folder, names, found) in [(scratch.tree, listed, root), (scratch.tree + "/sub", ["c.png"], sub)] {
            let full = index.photos(inFolder: folder)
            for (name, photo) in zip(names, found.photos) {
                guard let indexed = full[name] else { continue }
                let size = try #require(indexed.facts?.uprightSize)
                let expected = RecalledPhoto(
                    device: indexed.device, inode: indexed.inode, size: indexed.size, modifiedNanoseconds: indexed.modifiedNanoseconds,
                    taken: indexed.taken, aspect: Double(size.width) / Double(size.height))
                #expect(photo == expected, "\(folder)/\(name)")
            }
        }
    }

    /// Without a date of its own, a photo is dated by its modification time in this machine's
    /// zone, marked as such.
    @Test func aPhotoWithoutDateIsDatedByItsFile() throws {
        let scratch = try Scratch(count: 1)
        setModificationTime(1_600_000_000, ofFileAt: scratch.tree + "/p1.jpg")
        let index = LibraryIndex(path: nil, report: { _ in })
        let photo = try #require(FolderIndexing.index(scratch.folder, in: index).photos.first)
        var seconds = time_t(1_600_000_000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        #expect(photo.taken.source == .fileModified)
        #expect(photo.taken.localSeconds == 1_600_000_000 + Int64(parts.tm_gmtoff))
        #expect(photo.taken.civil.hour == Int(parts.tm_hour) && photo.taken.civil.day == Int(parts.tm_mday))
    }

    /// A file that is not an image is recorded with the reason, and not read again either.
    @Test func aBrokenFileIsRememberedWithItsReason() throws {
        let scratch = try Scratch(count: 1)
        try Data(Array(repeating: 0x42, count: 100)).write(to: URL(fileURLWithPath: scratch.tree + "/broken.jpg"))
        let index = LibraryIndex(path: scratch.database, report: { _ in })
        let folder = PhotoTree.Folder(path: scratch.tree, photos: [scratch.tree + "/broken.jpg", scratch.tree + "/p1.jpg"])
        let first = FolderIndexing.index(folder, in: index)
        #expect(first.photos[0].facts == nil && first.photos[0].failure?.isEmpty == false)
        #expect(FolderIndexing.index(folder, in: LibraryIndex(path: scratch.database, report: { _ in })).read == 0)
    }

    @Test func aDamagedDatabaseIsMovedAsideAndMadeAnew() throws {
        let scratch = try Scratch(count: 2)
        try FileManager.default.createDirectory(atPath: scratch.root + "/cache/riffle", withIntermediateDirectories: true)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: URL(fileURLWithPath: scratch.database))
        let reports = Reports()
        let index = LibraryIndex(path: scratch.database, report: reports.hear)
        #expect(index.storage == .file(scratch.database))
        #expect(reports.all.count == 1 && reports.all[0].contains("damaged"), "\(reports.all)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.database + ".damaged")) == garbage)
        #expect(FolderIndexing.index(scratch.folder, in: index).read == 2)
        #expect(FolderIndexing.index(scratch.folder, in: LibraryIndex(path: scratch.database, report: reports.hear)).read == 0)
        #expect(reports.all.count == 1)
    }

    /// A cache folder that cannot be made (a file stands where it should be) leaves the index
    /// in memory for the run, said once; nothing is written.
    @Test func aCacheThatCannotBeWrittenLeavesTheIndexInMemory() throws {
        let scratch = try Scratch(count: 2)
        try Data("a file".utf8).write(to: URL(fileURLWithPath: scratch.root + "/cache/riffle"))
        let reports = Reports()
        let index = LibraryIndex(path: scratch.database, report: reports.hear)
        #expect(index.storage == .memory)
        #expect(reports.all.count == 1 && reports.all[0].contains("in memory"), "\(reports.all)")
        #expect(FolderIndexing.index(scratch.folder, in: index).read == 2)
        #expect(FolderIndexing.index(scratch.folder, in: index).read == 0, "the run still remembers what it read")
    }

    /// A database made by a newer Riffle (a migration this one does not know) is left as it is.
    @Test func aNewerSchemaIsLeftAlone() throws {
        let scratch = try Scratch(count: 1)
        _ = LibraryIndex(path: scratch.database, report: { _ in })
        try SQLiteShell.run(scratch.database, "INSERT INTO grdb_migrations (identifier) VALUES ('v2: from the future');")
        let before = try SQLiteShell.run(scratch.database, ".dump")
        let reports = Reports()
        let index = LibraryIndex(path: scratch.database, report: reports.hear)
        #expect(index.storage == .memory)
        #expect(reports.all.count == 1 && reports.all[0].contains("newer Riffle"), "\(reports.all)")
        _ = FolderIndexing.index(scratch.folder, in: index)
        #expect(try SQLiteShell.run(scratch.database, ".dump") == before, "nothing written into it")
    }

    /// An empty file (a database before any schema) is migrated to the current schema.
    @Test func anEmptyDatabaseIsMigrated() throws {
        let scratch = try Scratch(count: 1)
        try FileManager.default.createDirectory(atPath: scratch.root + "/cache/riffle", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: scratch.database, contents: Data())
        let index = LibraryIndex(path: scratch.database, report: { _ in })
        #expect(index.storage == .file(scratch.database))
        #expect(FolderIndexing.index(scratch.folder, in: index).read == 1)
        let tables = try SQLiteShell.run(scratch.database, "SELECT identifier FROM grdb_migrations;")
        #expect(tables.contains("v1: folders and photos"))
    }

    /// Another process (the sqlite3 shell) holding the write lock for a while: the index waits
    /// for it, then writes; both writes are there.
    @Test func aSecondProcessWritingIsWaitedFor() throws {
        let scratch = try Scratch(count: 2)
        let index = LibraryIndex(path: scratch.database, report: { _ in })
        _ = FolderIndexing.index(scratch.folder, in: index)
        let ready = scratch.root + "/locked"
        let other = Process()
        other.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        other.arguments = ["sqlite3", scratch.database]
        let script = Pipe()
        other.standardInput = script
        other.standardOutput = FileHandle.nullDevice
        try other.run()
        // Takes the write lock, says so, holds it while it counts (about a second), then commits.
        script.fileHandleForWriting.write(Data("""
            BEGIN IMMEDIATE;
            INSERT INTO folder (path) VALUES ('/elsewhere');
            .shell touch \(ready)
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000000) SELECT count(*) FROM c;
            COMMIT;

            """.utf8))
        try script.fileHandleForWriting.close()
        while !FileManager.default.fileExists(atPath: ready) && other.isRunning { usleep(10_000) }
        try FileManager.default.copyItem(atPath: scratch.tree + "/p1.jpg", toPath: scratch.tree + "/p3.jpg")
        #expect(FolderIndexing.index(scratch.folder, in: index).read == 1)
        // The index's write came after the other's commit: its row is there already.
        let folders = try SQLiteShell.run(scratch.database, "SELECT path FROM folder ORDER BY path;")
        #expect(folders.contains("/elsewhere") && folders.contains(scratch.tree), "\(folders)")
        other.waitUntilExit()
        #expect(other.terminationStatus == 0)
        #expect(index.storage == .file(scratch.database), "the write waited rather than failing")
        #expect(LibraryIndex(path: scratch.database, report: { _ in }).photos(inFolder: scratch.tree).count == 3)
    }
}

/// The sqlite3 shell (Debian's sqlite3), to look at and change a database from outside.
enum SQLiteShell {
    @discardableResult
    static func run(_ database: String, _ sql: String) throws -> String {
        String(decoding: try ExternalTool.run("sqlite3", [database, sql]), as: UTF8.self)
    }
}
