import CSQLite

/// Runs SQL statements on a plain SQLite connection to `path` (created if missing) and closes
/// it, as another program would.
public func executeSQL(_ sql: String, on path: String) throws {
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
        sqlite3_close_v2(handle)
        throw SupportFailure("cannot open \(path) with SQLite")
    }
    defer { sqlite3_close_v2(handle) }
    var message: UnsafeMutablePointer<CChar>?
    sqlite3_busy_timeout(handle, 5000)
    // The checkpoint leaves the changes in the file itself, even if a connection another
    // test object has not released yet keeps SQLite from doing it when this one closes.
    guard sqlite3_exec(handle, sql + ";\nPRAGMA wal_checkpoint(TRUNCATE);", nil, nil, &message) == SQLITE_OK else {
        let text = message.map { String(cString: $0) } ?? "unknown error"
        sqlite3_free(message)
        throw SupportFailure("SQL on \(path) failed: \(text)")
    }
}
