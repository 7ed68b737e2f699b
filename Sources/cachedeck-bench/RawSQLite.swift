import CSQLite
import Foundation

/// A plain SQLite connection for the baselines, configured like CacheCore's connections
/// (WAL, `synchronous=NORMAL`, the same journal limit, temp store and busy timeout).
final class RawConnection {
    let handle: OpaquePointer

    /// Opens the file at `path`; creates it when `create` is set (with `pageSize`-byte pages
    /// when given).
    init(path: String, create: Bool = false, pageSize: Int? = nil) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0)
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            sqlite3_close_v2(db)
            throw BenchError("cannot open \(path): \(String(cString: sqlite3_errstr(code)))")
        }
        handle = db
        sqlite3_busy_timeout(db, 5000)
        if let pageSize { try execute("PRAGMA page_size = \(pageSize)") }
        try execute(
            """
            PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
            PRAGMA journal_size_limit = 67108864; PRAGMA temp_store = MEMORY
            """)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs SQL that returns no rows of interest.
    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), sql)
    }

    /// Prepares `sql` once with `sqlite3_prepare_v2`.
    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), sql)
        guard let statement else { throw BenchError("empty statement: \(sql)") }
        return RawStatement(handle: statement)
    }

    /// Throws with SQLite's message unless `code` is `SQLITE_OK`, `SQLITE_ROW` or `SQLITE_DONE`.
    func check(_ code: Int32, _ context: String) throws {
        guard code != SQLITE_OK && code != SQLITE_ROW && code != SQLITE_DONE else { return }
        throw BenchError("SQLite error \(code) (\(String(cString: sqlite3_errmsg(handle)))) in: \(context)")
    }
}

extension RawConnection {
    /// The first column of the first row of `sql`.
    func integer(_ sql: String) throws -> Int64 {
        let statement = try prepare(sql)
        defer { sqlite3_reset(statement.handle) }
        guard sqlite3_step(statement.handle) == SQLITE_ROW else { throw BenchError("no row: \(sql)") }
        return sqlite3_column_int64(statement.handle, 0)
    }

    /// The row id of namespace `name` in a CacheCore file.
    func namespaceID(_ name: String) throws -> Int64 {
        let statement = try prepare("SELECT id FROM namespaces WHERE name = ?1")
        sqlite3_bind_text(statement.handle, 1, name, -1, sqliteTransient)
        defer { sqlite3_reset(statement.handle) }
        guard sqlite3_step(statement.handle) == SQLITE_ROW else { throw BenchError("no namespace \(name)") }
        return sqlite3_column_int64(statement.handle, 0)
    }

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT` (rolling back if it throws).
    func inTransaction(_ body: () throws -> Void) throws {
        try execute("BEGIN IMMEDIATE")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}

/// `BEGIN IMMEDIATE` and `COMMIT` prepared once, as CacheCore caches its own: parsing them
/// would cost more than a point write's work.
final class RawTransaction {
    private let connection: RawConnection
    private let begin: RawStatement
    private let commit: RawStatement

    init(_ connection: RawConnection) throws {
        self.connection = connection
        begin = try connection.prepare("BEGIN IMMEDIATE")
        commit = try connection.prepare("COMMIT")
    }

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT` (rolling back if it throws).
    func run(_ body: () throws -> Void) throws {
        defer {
            sqlite3_reset(begin.handle)
            sqlite3_reset(commit.handle)
        }
        try connection.check(sqlite3_step(begin.handle), "BEGIN IMMEDIATE")
        do {
            try body()
            try connection.check(sqlite3_step(commit.handle), "COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}

/// A prepared statement, finalized when released.
final class RawStatement {
    let handle: OpaquePointer

    init(handle: OpaquePointer) { self.handle = handle }

    deinit { sqlite3_finalize(handle) }
}

/// `SQLITE_TRANSIENT`, which the C macro does not bring into Swift.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Wall-clock milliseconds since the epoch, computed as CacheCore's `SystemClock` does.
func wallClockMilliseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
}
