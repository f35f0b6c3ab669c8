import Glibc
import GRDB
import GRDBSQLite
import RiffleGeometry
import RiffleImageIO
import RiffleLibrary
import RiffleRaster
import Synchronization

/// The library's index: for each photo file of the trees Riffle has shown, the stamp it had
/// when it was read and what was read (`IndexedPhoto`), in SQLite at
/// `$XDG_CACHE_HOME/riffle/library.sqlite` (GRDB's `DatabasePool`: WAL mode, so two Riffles on
/// one library read at once while one writes, a writer waiting up to `busyTimeout` for the other).
///
/// It is a cache and nothing else: deleting it loses nothing.
/// - A database that is damaged (not a database, corrupt) is moved aside to `.damaged` beside
///   it and a new one is made, with one line through `report`.
/// - One that cannot be opened or written (a read-only or full disk, a folder that cannot be
///   made) leaves the index in memory for the run, said once through `report`; so does a
///   database made by a newer Riffle, which is left as it is.
/// - Nothing is ever written anywhere but its own file and SQLite's beside it.
package final class LibraryIndex: @unchecked Sendable {
    /// Where the index is kept.
    package enum Storage: Equatable, Sendable {
        /// In the database file at this path.
        case file(String)
        /// In memory, for this run only.
        case memory
    }

    /// How long a write waits for another process's write to end.
    static let busyTimeout = 5.0

    /// The database and where it is: memory after a write failed, which swaps both mid-run.
    private let state: Mutex<(writer: any DatabaseWriter, storage: Storage)>
    private let report: @Sendable (String) -> Void

    /// Where it is kept now (memory after a write failed).
    package var storage: Storage { state.withLock { $0.storage } }

    /// `riffle/library.sqlite` in the user's cache folder (`CacheHome`); nil without one.
    package static func standardPath(environment: (String) -> String? = CacheHome.processEnvironment) -> String? {
        CacheHome.folder(environment: environment).map { $0 + "/riffle/library.sqlite" }
    }

    /// The index kept at `path` (its folder made when missing), or in memory when `path` is nil
    /// or the database there cannot be used; `report` hears, once each, what went wrong.
    package init(path: String?, report: @escaping @Sendable (String) -> Void) {
        self.report = report
        guard let path else {
            state = Mutex((Self.memoryDatabase(), .memory))
            return
        }
        do {
            state = Mutex((try Self.open(path, report: report), .file(path)))
        } catch {
            report("riffle: the library index \(path) cannot be used (\(Self.describe(error))); indexing in memory this time")
            state = Mutex((Self.memoryDatabase(), .memory))
        }
    }

    /// The photos the index holds for `folder`, by name.
    package func photos(inFolder folder: String) -> [String: IndexedPhoto] {
        let rows = (try? reader.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(Self.photoColumns) FROM photo JOIN folder ON folder.id = photo.folder WHERE folder.path = ?",
                arguments: [folder])
        }) ?? []
        return Dictionary(rows.map { Self.photo(from: $0, at: 0) }.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// What the index holds of each folder's listed photos (`paths`, the photos' paths, each
    /// named by what follows its last "/"): for every photo, its stamp, date and shape, or nil
    /// when the index holds none; with the names the index holds that are not listed. Nil for a
    /// folder the index does not know.
    ///
    /// What a timeline's dating recalls at launch (100,000 photos in a few tens of
    /// milliseconds): one prepared statement stepped with SQLite's own API once per folder, only
    /// the columns a date needs read by position, and its rows matched to the listing by a merge
    /// on the names' bytes (the photo table is clustered on (folder, name), and SQLite's BINARY
    /// collation is memcmp order, https://www.sqlite.org/datatype3.html#collation), so that no
    /// dictionary and no string is made per photo.
    package func recall(_ folders: [(path: String, paths: [String])]) -> [RecalledFolder?] {
        (try? reader.read { db -> [RecalledFolder?] in
            // A folder may be given more than once (dated again before its first recall).
            var wanted: [String: [Int]] = [:]
            for (k, folder) in folders.enumerated() { wanted[folder.path, default: []].append(k) }
            var ids = [Int64?](repeating: nil, count: folders.count)
            if wanted.count <= Self.foldersLookedUpOneByOne {
                // A survey's one folder: by the path's unique index, not a pass over every folder.
                let lookup = try db.makeStatement(sql: "SELECT id FROM folder WHERE path = ?")
                for (path, places) in wanted {
                    let id = try Int64.fetchOne(lookup, arguments: [path])
                    for k in places { ids[k] = id }
                }
            } else {
                let known = try Row.fetchCursor(db, sql: "SELECT id, path FROM folder")
                while let row = try known.next() {
                    for k in wanted[row[1] as String] ?? [] { ids[k] = row[0] }
                }
            }
            let statement = try db.makeStatement(sql: Self.recallQuery)
            return try zip(folders, ids).map { folder, id in
                guard let id else { return nil }
                return try Self.matching(folder.paths) { each in try Self.stepRows(of: id, statement: statement.sqliteStatement, each) }
            }
        }) ?? folders.map { _ in nil }
    }

    /// Every photo row the index holds in the folder `root` and the folders under it, read in
    /// one pass by the statement `recall(_:)` steps, kept with their names in byte order: what
    /// a launch reads while the tree is walked (`TreeReadAhead`), so that the first recall only
    /// matches the listing to it. Empty when the index cannot be read.
    package func readTree(under root: String) -> IndexedTree {
        let below = root.hasSuffix("/") ? root : root + "/"
        return (try? reader.read { db -> IndexedTree in
            var tree = IndexedTree()
            let statement = try db.makeStatement(sql: Self.recallQuery)
            let known = try Row.fetchCursor(db, sql: "SELECT id, path FROM folder")
            while let row = try known.next() {
                let path: String = row[1]
                guard path == root || path.hasPrefix(below) else { continue }
                var rows = IndexedTree.Rows()
                try Self.stepRows(of: row[0], statement: statement.sqliteStatement) { name, photo in rows.append(name: name, photo: photo()) }
                tree.folders[path] = rows
            }
            return tree
        }) ?? IndexedTree()
    }

    /// Up to this many folders a recall finds each by its path; more, in one pass over all.
    private static let foldersLookedUpOneByOne = 16

    /// The columns a recall reads, of one folder's photos in their names' byte order (the photo
    /// table is clustered on (folder, name); SQLite's BINARY collation is memcmp order).
    private static let recallQuery = """
        SELECT name, device, inode, size, modified, width, height, taken, taken_offset, taken_source
        FROM photo WHERE folder = ? ORDER BY name
        """

    /// Steps `statement` (`recallQuery`) over folder `id`'s rows, giving `each` a row's name
    /// bytes (valid for the call) and the photo it records, read only when asked for.
    private static func stepRows(
        of id: Int64, statement: OpaquePointer, _ each: (UnsafeBufferPointer<UInt8>, () -> RecalledPhoto) -> Void
    ) throws {
        sqlite3_reset(statement)
        sqlite3_bind_int64(statement, 1, id)
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw DatabaseError(resultCode: ResultCode(rawValue: status)) }
            let name = UnsafeBufferPointer(start: sqlite3_column_text(statement, 0), count: Int(sqlite3_column_bytes(statement, 0)))
            each(name) {
                func integer(_ column: Int32) -> Int64? {
                    sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, column)
                }
                let source = TakenDate.Source(rawValue: Int(integer(9) ?? 2)) ?? .fileModified
                return RecalledPhoto(
                    device: UInt64(bitPattern: integer(1) ?? 0), inode: UInt64(bitPattern: integer(2) ?? 0), size: integer(3) ?? 0,
                    modifiedNanoseconds: integer(4) ?? 0,
                    taken: TakenDate(localSeconds: integer(7) ?? 0, offsetMinutes: integer(8).map { Int($0) }, source: source),
                    aspect: Self.aspect(width: Int(integer(5) ?? 0), height: Int(integer(6) ?? 0)))
            }
        }
    }

    /// The photos of `paths` matched to the rows `rows` gives (each row's name bytes and its
    /// photo, in the names' byte order): a merge over the names in byte order, the listing
    /// sorted first when its natural order is not that. The listed names' bytes are copied once
    /// into one buffer and compared there with memcmp(3): a launch matches 100,000 of them while
    /// the first frame in date order waits (`riffle-bench library`'s tree of 100,000, traced:
    /// the first recall took 42–58 ms when each comparison found its names in the paths again,
    /// 28–30 ms so).
    static func matching(
        _ paths: [String], rows: (_ each: (UnsafeBufferPointer<UInt8>, () -> RecalledPhoto) -> Void) throws -> Void
    ) rethrows -> RecalledFolder {
        let names = ListedNames(paths)
        var order = Array(paths.indices)
        if !zip(order, order.dropFirst()).allSatisfy({ names.compare($0, $1) < 0 }) { order.sort { names.compare($0, $1) < 0 } }
        var folder = RecalledFolder(photos: Array(repeating: nil, count: paths.count), unlisted: [])
        var next = 0
        try rows { name, photo in
            while next < order.count, names.compare(order[next], name) < 0 { next += 1 }
            guard next < order.count, names.compare(order[next], name) == 0 else {
                folder.unlisted.append(String(decoding: name, as: UTF8.self))
                return
            }
            folder.photos[order[next]] = photo()
            next += 1
        }
        return folder
    }

    /// The last components of paths (what follows each one's last "/"), their UTF-8 bytes one
    /// after another in one array: name k is `bytes[starts[k]..<starts[k + 1]]`.
    private struct ListedNames {
        var bytes: [UInt8] = []
        var starts = [0]

        init(_ paths: [String]) {
            starts.reserveCapacity(paths.count + 1)
            for var path in paths {
                path.withUTF8 { path in
                    let from = path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
                    bytes.append(contentsOf: path[from...])
                }
                starts.append(bytes.count)
            }
        }

        /// −1, 0 or 1 as name `k` sorts before, with, or after `name` in byte order
        /// (`NaturalOrder.compare`).
        func compare(_ k: Int, _ name: UnsafeBufferPointer<UInt8>) -> Int {
            bytes.withUnsafeBytes { NaturalOrder.compare(UnsafeRawBufferPointer(rebasing: $0[starts[k]..<starts[k + 1]]), UnsafeRawBufferPointer(name)) }
        }

        /// The same for names `a` and `b`.
        func compare(_ a: Int, _ b: Int) -> Int {
            bytes.withUnsafeBufferPointer { compare(a, UnsafeBufferPointer(rebasing: $0[starts[b]..<starts[b + 1]])) }
        }
    }

    /// Width over height, nil when either is not positive (a head that gave no size).
    static func aspect(width: Int, height: Int) -> Double? {
        width > 0 && height > 0 ? Double(width) / Double(height) : nil
    }

    /// Records `photos` of `folder` (replacing what was known of them) and forgets the photos of
    /// `folder` named in `gone`, in one transaction.
    package func record(_ photos: [IndexedPhoto], forgetting gone: [String] = [], inFolder folder: String) {
        write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO folder (path) VALUES (?)", arguments: [folder])
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM folder WHERE path = ?", arguments: [folder]) else { return }
            let insert = try db.makeStatement(sql: """
                INSERT OR REPLACE INTO photo (folder, name, device, inode, size, modified, format, width, height, orientation,
                    taken, taken_offset, taken_source, camera, lens, failure)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for photo in photos {
                let facts = photo.facts
                try insert.execute(arguments: [
                    id, photo.name, Int64(bitPattern: photo.device), Int64(bitPattern: photo.inode), photo.size, photo.modifiedNanoseconds,
                    facts?.format.rawValue, facts?.uprightSize.width, facts?.uprightSize.height, facts?.orientation.rawValue,
                    photo.taken.localSeconds, photo.taken.offsetMinutes, photo.taken.source.rawValue, facts?.camera, facts?.lens,
                    photo.failure,
                ])
            }
            let delete = try db.makeStatement(sql: "DELETE FROM photo WHERE folder = ? AND name = ?")
            for name in gone { try delete.execute(arguments: [id, name]) }
        }
    }

    /// Forgets `folder` and its photos (a folder that has gone).
    package func forget(folder: String) {
        write { db in try db.execute(sql: "DELETE FROM folder WHERE path = ?", arguments: [folder]) }
    }

    // MARK: - Storage

    private var reader: any DatabaseReader { state.withLock { $0.writer } }

    /// Runs `change` in a write transaction; when it fails for want of a writable, working
    /// database, says so once and goes on in memory (what this run learns is kept there).
    private func write(_ change: (Database) throws -> Void) {
        let current = state.withLock { $0.writer }
        do {
            try current.write(change)
        } catch {
            let path: String? = state.withLock { state in
                guard case .file(let path) = state.storage else { return nil }
                state = (Self.memoryDatabase(), .memory)
                return path
            }
            if let path {
                report("riffle: the library index \(path) cannot be written (\(Self.describe(error))); indexing in memory from now on")
            }
            try? state.withLock { $0.writer }.write(change)
        }
    }

    /// The database at `path`, migrated; a damaged one is moved aside and made anew.
    private static func open(_ path: String, report: (String) -> Void) throws -> any DatabaseWriter {
        if let failed = FilePaths.makeFolders(FilePaths.folder(of: path)) { throw IndexError("cannot make \(failed.folder): \(failed.reason)") }
        do {
            return try migrated(DatabasePool(path: path, configuration: configuration))
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            let aside = path + ".damaged"
            for suffix in ["", "-wal", "-shm"] { _ = rename(path + suffix, aside + suffix) }
            report("riffle: the library index \(path) was damaged (\(describe(error))); moved it to \(aside) and started a new one")
            return try migrated(DatabasePool(path: path, configuration: configuration))
        }
    }

    /// `database` with every migration applied; throws for one made by a newer Riffle.
    private static func migrated(_ database: some DatabaseWriter) throws -> any DatabaseWriter {
        let migrator = IndexSchema.migrator
        if try database.read({ try migrator.hasBeenSuperseded($0) }) {
            throw IndexError("it was made by a newer Riffle")
        }
        try migrator.migrate(database)
        return database
    }

    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "riffle.library-index"
        return configuration
    }

    private static func memoryDatabase() -> any DatabaseWriter {
        // An in-memory queue with the schema always opens (nothing on disk can fail it).
        let queue = try! DatabaseQueue(configuration: configuration)
        try! IndexSchema.migrator.migrate(queue)
        return queue
    }

    /// The photo's columns, in the order `photo(from:at:)` reads them by position.
    private static let photoColumns = """
        photo.name, photo.device, photo.inode, photo.size, photo.modified, photo.format, photo.width, photo.height,
        photo.orientation, photo.taken, photo.taken_offset, photo.taken_source, photo.camera, photo.lens, photo.failure
        """

    /// The photo of `photoColumns` read from `row`, those columns starting at position `first`;
    /// without `details`, only those up to the date's source (no camera, lens or failure).
    private static func photo(from row: Row, at first: Int, details: Bool = true) -> IndexedPhoto {
        // StatementColumnConvertible: GRDB reads such a value straight from the statement, not
        // through a DatabaseValue.
        func column<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ k: Int) -> Value? { row[first + k] }
        let format = (column(5) as String?).flatMap(ImageFormat.init(rawValue:))
        let width: Int? = column(6), height: Int? = column(7)
        let facts = format.map { format in
            PhotoFacts(
                format: format, uprightSize: PixelSize(width: width ?? 0, height: height ?? 0),
                orientation: (column(8) as Int?).flatMap(ImageOrientation.init(rawValue:)) ?? .topLeft,
                taken: nil, camera: details ? column(12) : nil, lens: details ? column(13) : nil)
        }
        let source = TakenDate.Source(rawValue: column(11) ?? 2) ?? .fileModified
        let taken = TakenDate(localSeconds: column(9) ?? 0, offsetMinutes: column(10), source: source)
        var found = facts
        if source != .fileModified { found?.taken = taken }
        return IndexedPhoto(
            name: column(0) ?? "", device: UInt64(bitPattern: column(1) ?? 0), inode: UInt64(bitPattern: column(2) ?? 0),
            size: column(3) ?? 0, modifiedNanoseconds: column(4) ?? 0, facts: found, taken: taken, failure: details ? column(14) : nil)
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }
}

/// Why the index could not be opened where it should be.
struct IndexError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
