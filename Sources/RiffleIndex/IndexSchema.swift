import GRDB

/// The index's tables, as migrations (GRDB's `DatabaseMigrator`): each is applied once, in
/// order, and the list only ever grows, so a database made by an older Riffle is brought up to
/// date and one made by a newer Riffle is recognised (`hasBeenSuperseded`) and left alone.
///
/// About 150 bytes a photo (a folder's path once, then per file its name, stamp, size, date,
/// camera and lens): SQLite stores integers in 1 to 8 bytes as their values need, and the photo
/// table is a WITHOUT ROWID table clustered on (folder, name), the key every lookup uses.
enum IndexSchema {
    /// The migrations, oldest first.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: folders and photos") { db in
            try db.execute(sql: """
                CREATE TABLE folder (
                    id INTEGER PRIMARY KEY,
                    path TEXT NOT NULL UNIQUE
                );
                CREATE TABLE photo (
                    folder INTEGER NOT NULL REFERENCES folder(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    device INTEGER NOT NULL,
                    inode INTEGER NOT NULL,
                    size INTEGER NOT NULL,
                    modified INTEGER NOT NULL,
                    format TEXT,
                    width INTEGER,
                    height INTEGER,
                    orientation INTEGER,
                    taken INTEGER NOT NULL,
                    taken_offset INTEGER,
                    taken_source INTEGER NOT NULL,
                    camera TEXT,
                    lens TEXT,
                    failure TEXT,
                    PRIMARY KEY (folder, name)
                ) WITHOUT ROWID;
                """)
        }
        return migrator
    }
}
