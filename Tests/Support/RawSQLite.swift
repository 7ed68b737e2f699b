import CSQLite
import Foundation

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

/// Puts another database's `-wal` (committed pages of a table `t` that no checkpoint wrote
/// back) beside `path`, as a copy or a restore that mixed files up leaves it.
public func placeForeignWAL(beside path: String) throws {
    let other = path + ".other"
    var handle: OpaquePointer?
    guard sqlite3_open_v2(other, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let handle
    else {
        sqlite3_close_v2(handle)
        throw SupportFailure("cannot create \(other)")
    }
    defer {
        sqlite3_close_v2(handle)
        for suffix in ["", "-wal", "-shm"] { unlink(other + suffix) }
    }
    let sql = """
        PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE t(x);
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) INSERT INTO t SELECT i FROM n;
        """
    guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw SupportFailure("cannot fill \(other)") }
    unlink(path + "-wal")
    unlink(path + "-shm")
    guard link(other + "-wal", path + "-wal") == 0 || copyFile(other + "-wal", path + "-wal") else {
        throw SupportFailure("cannot place the -wal beside \(path)")
    }
}

private func copyFile(_ from: String, _ to: String) -> Bool {
    guard let data = FileManager.default.contents(atPath: from) else { return false }
    return FileManager.default.createFile(atPath: to, contents: data, attributes: [.posixPermissions: 0o600])
}
