import Foundation

/// What a file says of itself before its tables are read.
struct SchemaHeader {
    let applicationID: Int64
    let version: Int
    /// The file has no schema at all (a new or empty SQLite file).
    let isEmpty: Bool
}

/// The SQL about the file itself rather than one table: its pragmas and `sqlite_schema`, and
/// the probes and reads that stop at damaged pages.
extension SQLiteConnection {
    /// Identity, version and emptiness read in one statement, so all three describe the same
    /// moment even while another process is creating the file.
    func schemaHeader() throws -> SchemaHeader {
        try withStatement(
            """
            SELECT (SELECT application_id FROM pragma_application_id),
                   (SELECT user_version FROM pragma_user_version),
                   (SELECT count(*) FROM sqlite_schema)
            """
        ) { statement in
            try statement.firstRow { row in
                SchemaHeader(applicationID: row.int64(0), version: row.int(1), isEmpty: row.int64(2) == 0)
            }
        } ?? SchemaHeader(applicationID: 0, version: 0, isEmpty: true)
    }

    /// The names of the file's own tables (not SQLite's), sorted.
    func tableNames() throws -> [String] {
        try withStatement(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name"
        ) { statement in try statement.rows { $0.text(0) } }
    }

    /// The tables and indexes that have a b-tree of their own, in root page order.
    func schemaObjects() throws -> [(type: String, name: String, table: String)] {
        try withStatement("SELECT type, name, tbl_name FROM sqlite_schema WHERE rootpage > 0 ORDER BY rootpage") {
            try $0.rows { ($0.text(0), $0.text(1), $0.text(2)) }
        }
    }

    /// The names of the indexes `table`'s primary key made (a WITHOUT ROWID table's b-tree).
    func primaryKeyIndexes(of table: String) throws -> [String] {
        let keys = try withDynamicStatement("PRAGMA index_list(\(Self.quoted(table)))") { statement in
            try statement.rows { (name: $0.text(1), origin: $0.text(3)) }
        }
        return keys.filter { $0.origin == "pk" }.map(\.name)
    }

    /// Reads the first row of `table` through `index` (`nil`: the table's own b-tree), which
    /// throws when that b-tree's root page is damaged.
    /// A partial index is read under its own condition (``Schema/partialIndexConditions``).
    func probe(table: String, index: String?) throws {
        let sql =
            index.map {
                "SELECT 1 FROM \(Self.quoted(table)) INDEXED BY \(Self.quoted($0))"
                    + (Schema.partialIndexConditions[$0].map { " WHERE " + $0 } ?? "") + " LIMIT 1"
            }
            ?? "SELECT 1 FROM \(Self.quoted(table)) NOT INDEXED LIMIT 1"
        _ = try withDynamicStatement(sql) { try $0.step() }
    }

    /// The bytes of the file's free pages (reused by the next writes before the file grows).
    func freePageBytes() throws -> Int {
        let pages = try scalar("PRAGMA freelist_count") ?? 0
        let size = try scalar("PRAGMA page_size") ?? 4096
        return Int(pages * size)
    }

    /// The file's free pages.
    func freePages() throws -> Int {
        Int(try scalar("PRAGMA freelist_count") ?? 0)
    }

    /// Whether the file can give free pages back in steps (`auto_vacuum = INCREMENTAL`, which
    /// files created since format 6 have), rather than only by a whole ``rebuildIncrementallyVacuumed()``.
    func isIncrementallyVacuumed() throws -> Bool {
        try scalar("PRAGMA auto_vacuum") == 2
    }

    /// Makes a new file's free pages returnable in steps: run before its first table exists.
    func useIncrementalVacuum() throws {
        try execute("PRAGMA auto_vacuum = INCREMENTAL")
    }

    /// Moves up to ``vacuumStepPages`` pages from the end of the file into free pages and cuts
    /// them off (from the file itself at the next checkpoint). A write: run it on the writer.
    func vacuumStep() throws {
        try withStatement("PRAGMA incremental_vacuum(2048)") { _ = try $0.run() }
    }

    /// The pages one ``vacuumStep()`` frees at most (8 MB of 4 kB pages).
    static let vacuumStepPages = 2048

    /// Rewrites the whole file without its free pages, as an incrementally vacuumed file
    /// (see ``isIncrementallyVacuumed()``). Needs no transaction open; blocks other writers.
    func rebuildIncrementallyVacuumed() throws {
        try execute("PRAGMA auto_vacuum = INCREMENTAL; VACUUM")
    }

    /// A number that changes when another connection commits to the file.
    func dataVersion() throws -> Int64 {
        try scalar("PRAGMA data_version") ?? 0
    }

    // MARK: Connection settings

    /// The writer's settings. secure_delete = FAST: removed values are zeroed where that costs
    /// no extra I/O, but freed overflow pages are not rewritten (a system SQLite built with
    /// SECURE_DELETE would write every freed page of a large value again); VACUUM scrubs them.
    /// The writer serves this process's point reads too (see `Database.lookup`), so it gets a
    /// 32 MB page cache; readers keep SQLite's default 2 MB.
    func configureWriter() throws {
        try execute(
            """
            PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 67108864; PRAGMA temp_store = MEMORY;
            PRAGMA secure_delete = FAST; PRAGMA cache_size = -32768
            """)
    }

    /// A reader's settings: temporary tables (a sort's, `temp.doomed`) stay in memory, and
    /// the file is read through a memory map (up to 2 GiB, SQLite's own limit), not a `pread`
    /// a page: readers serve the console's scans (a ranking by last access reads every row
    /// of a namespace), which took about a third less CPU on a 1 GB file. SQLite still writes
    /// through the writer's `write`s, so a full disk stays an error, not a signal; it maps the
    /// file's size at each read transaction's start, so only a file cut short by another program
    /// during one scan (which breaks the file for every user) would stop the process (`SIGBUS`).
    func configureReader() throws {
        try execute("PRAGMA temp_store = MEMORY; PRAGMA mmap_size = 2147483648")
    }

    /// The file's format version (`user_version`).
    func formatVersion() throws -> Int {
        Int(try scalar("PRAGMA user_version") ?? 0)
    }

    /// Marks the file as a CacheDeck cache of the current format. The two numbers are
    /// constants of the code, written into the text because a pragma takes no parameters.
    func markCurrentFormat() throws {
        try execute("PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = \(Schema.currentVersion)")
    }

    /// Asks for journal mode `WAL`; returns the mode the file is in afterwards.
    func requestWAL() throws -> String? {
        try withStatement("PRAGMA journal_mode = WAL") { try $0.firstRow { $0.text(0) } }
    }

    /// Switches to a rollback journal (a file being salvaged into, which no one else opens).
    func useRollbackJournal() throws {
        try execute("PRAGMA journal_mode = DELETE")
    }

    /// Turns SQLite's automatic checkpoint after commits off (`false`) or back to its default
    /// of 1,000 pages.
    func setAutomaticCheckpoint(_ isOn: Bool) throws {
        if isOn { try run("PRAGMA wal_autocheckpoint = 1000") } else { try run("PRAGMA wal_autocheckpoint = 0") }
    }

    /// The rows of `sql` as `read` maps them, up to the first damaged page.
    func readableRows<T>(_ sql: String, _ read: (SQLiteStatement) -> T) -> [T] {
        var rows: [T] = []
        _ = try? withDynamicStatement(sql) { statement in
            while try statement.step() { rows.append(read(statement)) }
        }
        return rows
    }

    /// `name` as an SQL identifier: table and index names cannot be parameters, and those
    /// read from a file may hold anything.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
