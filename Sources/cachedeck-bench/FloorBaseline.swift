import CSQLite
import Foundation

/// The floor every cache is measured against (docs/ARCHITECTURE.md, "Performance budgets"): raw SQLite C
/// calls on the least table a cache needs, in a file of its own, WAL and `synchronous=NORMAL`
/// (see ``RawConnection``), statements prepared once and driven with bind / step / reset.
final class FloorBaseline {
    private let connection: RawConnection
    private let select: RawStatement
    private let scan: RawStatement
    private let upsert: RawStatement
    private let delete: RawStatement
    private let deleteExpired: RawStatement
    private let transaction: RawTransaction

    /// The expiry CacheCore's default policy gives a set (24 hours).
    static let lifetime: Int64 = 24 * 3600 * 1000

    /// Opens (creating when missing) the floor's file at `path`.
    init(path: String) throws {
        connection = try RawConnection(path: path, create: true)
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS entries (ns TEXT, key TEXT, value BLOB, expires INTEGER, PRIMARY KEY (ns, key))
            """)
        select = try connection.prepare("SELECT value FROM entries WHERE ns = ?1 AND key = ?2")
        scan = try connection.prepare("SELECT count(*), sum(length(value)) FROM entries WHERE ns = ?1")
        upsert = try connection.prepare(
            """
            INSERT INTO entries (ns, key, value, expires) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value, expires = excluded.expires
            """)
        delete = try connection.prepare("DELETE FROM entries WHERE ns = ?1 AND key = ?2")
        deleteExpired = try connection.prepare(
            """
            DELETE FROM entries WHERE rowid IN (
                SELECT rowid FROM entries WHERE ns = ?1 AND expires <= ?2 LIMIT ?3)
            """)
        transaction = try RawTransaction(connection)
    }

    /// The unexpired value stored for `key`, copied out as `Data` (what any caller needs), or `nil`.
    func get(namespace: String, key: String) throws -> Data? {
        let handle = select.handle
        defer { sqlite3_reset(handle) }
        sqlite3_bind_text(handle, 1, namespace, -1, sqliteTransient)
        sqlite3_bind_text(handle, 2, key, -1, sqliteTransient)
        let code = sqlite3_step(handle)
        guard code == SQLITE_ROW else {
            try connection.check(code, "get")
            return nil
        }
        let count = Int(sqlite3_column_bytes(handle, 0))
        guard count > 0, let bytes = sqlite3_column_blob(handle, 0) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// Reads every value of `namespace` (a scan's page work); returns how many.
    func scanValues(namespace: String) throws -> Int {
        let handle = scan.handle
        defer { sqlite3_reset(handle) }
        sqlite3_bind_text(handle, 1, namespace, -1, sqliteTransient)
        guard sqlite3_step(handle) == SQLITE_ROW else { throw BenchError("scan") }
        return Int(sqlite3_column_int64(handle, 0))
    }

    /// Upserts one entry expiring at `expires` (ms since the epoch; default: 24 hours from
    /// now); autocommits unless inside ``inTransaction(_:)``.
    func set(namespace: String, key: String, value: Data, expires: Int64? = nil) throws {
        let handle = upsert.handle
        defer { sqlite3_reset(handle) }
        sqlite3_bind_text(handle, 1, namespace, -1, sqliteTransient)
        sqlite3_bind_text(handle, 2, key, -1, sqliteTransient)
        value.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(handle, 3, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
        }
        sqlite3_bind_int64(handle, 4, expires ?? wallClockMilliseconds() + Self.lifetime)
        try connection.check(sqlite3_step(handle), "upsert")
    }

    /// Deletes `key`; returns whether a row was there.
    func remove(namespace: String, key: String) throws -> Bool {
        let handle = delete.handle
        defer { sqlite3_reset(handle) }
        sqlite3_bind_text(handle, 1, namespace, -1, sqliteTransient)
        sqlite3_bind_text(handle, 2, key, -1, sqliteTransient)
        try connection.check(sqlite3_step(handle), "delete")
        return sqlite3_changes(connection.handle) > 0
    }

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT`.
    func inTransaction(_ body: () throws -> Void) throws {
        try transaction.run(body)
    }

    /// Upserts `count` entries, `value(index)` under `key(index)`, in transactions of
    /// `batchSize` (untimed setup).
    func fill(
        namespace: String, count: Int, batchSize: Int = 1000, expires: Int64? = nil, key: (Int) -> String,
        value: (Int) -> Data
    ) throws {
        for start in stride(from: 0, to: count, by: batchSize) {
            try inTransaction {
                for index in start..<min(start + batchSize, count) {
                    try set(namespace: namespace, key: key(index), value: value(index), expires: expires)
                }
            }
        }
    }

    /// Deletes the namespace's expired entries, `batchSize` per autocommit statement; returns how many.
    func sweepExpired(namespace: String, batchSize: Int) throws -> Int {
        let handle = deleteExpired.handle
        let now = wallClockMilliseconds()
        var total = 0
        while true {
            sqlite3_bind_text(handle, 1, namespace, -1, sqliteTransient)
            sqlite3_bind_int64(handle, 2, now)
            sqlite3_bind_int64(handle, 3, Int64(batchSize))
            let code = sqlite3_step(handle)
            sqlite3_reset(handle)
            try connection.check(code, "sweep")
            let removed = Int(sqlite3_changes(connection.handle))
            total += removed
            if removed < batchSize { return total }
        }
    }

    /// Moves the WAL into the database and truncates it, so timed phases start alike.
    func checkpoint() throws {
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
