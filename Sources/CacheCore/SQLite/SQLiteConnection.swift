import CSQLite
import Foundation

/// One SQLite connection: the only type in CacheCore that opens, configures and closes
/// `sqlite3` handles. It is not thread-safe: its owner (``ConnectionPool``) hands it to one
/// thread at a time, which is why it is marked `@unchecked Sendable`.
package final class SQLiteConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// Fixed statements, keyed by the address of their literal or ``FixedSQL`` (cheap to hash
    /// on hot paths).
    private var staticStatements: [UnsafeRawPointer: SQLiteStatement] = [:]
    /// Statements built at run time (filters, dynamic column lists), the most recently used
    /// ``dynamicStatementLimit`` of them: a user's filters are without number.
    private var dynamicStatements: [String: (statement: SQLiteStatement, lastUse: UInt64)] = [:]
    private var uses: UInt64 = 0
    /// How many statements built at run time a connection keeps prepared.
    static let dynamicStatementLimit = 64
    package let path: String

    /// Opens `path`. `create` adds `SQLITE_OPEN_CREATE`; `readOnly` opens without write access.
    /// `immutable` (read-only) tells SQLite the file cannot change: no locks, no `-shm` or
    /// `-wal`, so it can be read where neither exists nor can be created.
    package init(path: String, readOnly: Bool, create: Bool, busyTimeout: Duration, immutable: Bool = false) throws {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly || immutable ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly && !immutable { flags |= SQLITE_OPEN_CREATE }
        if immutable { flags |= SQLITE_OPEN_URI }
        var db: OpaquePointer?
        let code = sqlite3_open_v2(immutable ? Self.immutableURI(path) : path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let error = SQLiteError(code: code, connection: db)
            sqlite3_close_v2(db)
            throw error
        }
        self.handle = db
        self.path = path
        setBusyTimeout(busyTimeout)
    }

    /// How long a statement waits for another connection's lock before failing busy.
    func setBusyTimeout(_ timeout: Duration) {
        sqlite3_busy_timeout(handle, Int32(clamping: timeout.milliseconds))
    }

    /// Whether closing this connection (the last on the file) checkpoints the `-wal` into the
    /// file: off while a file is not yet known to be a cache, so a foreign `-wal` is never
    /// written into it.
    func checkpointsOnClose(_ enabled: Bool) {
        _ = cachedeck_checkpoint_on_close(handle, enabled ? 1 : 0)
    }

    /// `file:PATH?immutable=1`, with the characters a URI path cannot hold escaped.
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for character in path.unicodeScalars {
            switch character {
            case "%", "?", "#": escaped += "%" + String(character.value, radix: 16, uppercase: true)
            default: escaped.unicodeScalars.append(character)
            }
        }
        // An absolute path gets an empty authority (`file:///…`), so `//x` is not a host.
        return (path.hasPrefix("/") ? "file://" : "file:") + escaped + "?immutable=1"
    }

    deinit {
        staticStatements.removeAll()
        dynamicStatements.removeAll()
        sqlite3_close_v2(handle)
    }

    func error(_ code: Int32, statement: String? = nil) -> SQLiteError {
        SQLiteError(code: code, connection: handle, statement: statement)
    }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The row id of the last row this connection inserted.
    package var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether the file was opened (or fell back to) read-only.
    package var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Whether a transaction is open on this connection.
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs one or more SQL statements that return no rows.
    package func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) }
            sqlite3_free(message)
            var error = SQLiteError(code: sqlite3_extended_errcode(handle), message: text)
            error.statement = sql
            throw error
        }
    }

    /// Runs `body` with the cached prepared statement for `sql`, then resets it so no read
    /// transaction stays open after the call.
    func withStatement<T>(_ sql: StaticString, _ body: (SQLiteStatement) throws -> T) throws -> T {
        try withStatement(cachedAs: UnsafeRawPointer(sql.utf8Start), sql.description, body)
    }

    /// Like ``withStatement(_:_:)`` for SQL assembled once, kept by its
    /// ``FixedSQL`` object's address: a hot path never hashes the text.
    func withStatement<T>(_ sql: FixedSQL, _ body: (SQLiteStatement) throws -> T) throws -> T {
        try withStatement(cachedAs: UnsafeRawPointer(Unmanaged.passUnretained(sql).toOpaque()), sql.text, body)
    }

    private func withStatement<T>(cachedAs key: UnsafeRawPointer, _ sql: @autoclosure () -> String,
        _ body: (SQLiteStatement) throws -> T
    ) throws -> T {
        let statement: SQLiteStatement
        if let cached = staticStatements[key] {
            statement = cached
        } else {
            statement = try prepare(sql())
            staticStatements[key] = statement
        }
        defer { statement.reset() }
        return try body(statement)
    }

    /// Like ``withStatement(_:_:)`` for SQL assembled at run time.
    /// It keeps the ``dynamicStatementLimit`` most recently used such statements prepared,
    /// finalizing the least recently used one to make room (once no call uses it).
    package func withDynamicStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws -> T) throws -> T {
        uses &+= 1
        let statement: SQLiteStatement
        if let cached = dynamicStatements[sql]?.statement {
            statement = cached
        } else {
            statement = try prepare(sql)
            if dynamicStatements.count >= Self.dynamicStatementLimit,
                let oldest = dynamicStatements.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                dynamicStatements[oldest] = nil
            }
        }
        dynamicStatements[sql] = (statement, uses)
        defer { statement.reset() }
        return try body(statement)
    }

    /// The statements built at run time that are kept prepared.
    var preparedDynamicStatements: Set<String> { Set(dynamicStatements.keys) }

    /// Runs a statement that returns no rows and reports how many rows it changed.
    @discardableResult
    func run<each V: SQLiteBindable>(_ sql: StaticString, _ values: repeat each V) throws -> Int {
        try withStatement(sql) { statement in
            statement.bind(repeat each values)
            return try statement.run()
        }
    }

    /// The first column of the first row as an integer, or `nil` when there is no row or it is NULL.
    func scalar<each V: SQLiteBindable>(_ sql: StaticString, _ values: repeat each V) throws -> Int64? {
        try withStatement(sql) { statement in
            statement.bind(repeat each values)
            return try statement.firstRow { $0.optionalInt64(0) } ?? nil
        }
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws.
    /// Nested calls join the outer transaction.
    package func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction("BEGIN IMMEDIATE", body)
    }

    /// Runs `body` in one read transaction, so its statements see one snapshot of the file
    /// even while another connection commits; it ends before this returns (no read
    /// transaction outlives the call). Nested calls join the outer transaction.
    package func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction("BEGIN", body)
    }

    /// Transaction control runs as cached statements: parsing them costs more than a point
    /// write's own work.
    private func transaction<T>(_ begin: StaticString, _ body: () throws -> T) throws -> T {
        if isInTransaction { return try body() }
        try run(begin)
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            _ = try? run("ROLLBACK")
            throw error
        }
    }

    /// A new statement that the caller owns (for several cursors open at once).
    package func prepare(_ sql: String) throws -> SQLiteStatement {
        var raw: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard code == SQLITE_OK, let raw else { throw error(code, statement: sql) }
        return SQLiteStatement(handle: raw, connection: self)
    }
}

/// SQL text built once (a `static let`) from fixed parts, never from values; its statement is
/// cached by the object's address, as a `StaticString`'s is by its literal's.
final class FixedSQL: Sendable {
    let text: String

    init(_ text: String) { self.text = text }
}
