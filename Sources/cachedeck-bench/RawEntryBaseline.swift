import CSQLite
import Foundation

/// The raw C-API baseline: the statements CacheCore runs on `entries` (see EntrySQL.swift),
/// prepared once and driven with bind / step / reset per operation, nothing else.
final class RawEntryBaseline {
    private let connection: RawConnection
    private let select: RawStatement
    private let upsert: RawStatement
    private let delete: RawStatement
    private let deleteExpired: RawStatement
    private let begin: RawStatement
    private let commit: RawStatement

    /// The default policy's expiry (24 hours), as CacheCore writes it.
    private static let lifetime: Int64 = 24 * 3600 * 1000

    init(path: String) throws {
        connection = try RawConnection(path: path)
        select = try connection.prepare("SELECT value FROM entries WHERE namespace_id = ?1 AND key = ?2")
        upsert = try connection.prepare(
            """
            INSERT INTO entries (namespace_id, key, value, size, created_at, expires_at, stale_until, accessed_at, version, tags)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?5, '', NULL)
            ON CONFLICT (namespace_id, key) DO UPDATE SET
                value = excluded.value, size = excluded.size, created_at = excluded.created_at,
                expires_at = excluded.expires_at, stale_until = excluded.stale_until,
                accessed_at = excluded.accessed_at, version = excluded.version, tags = excluded.tags
            """)
        delete = try connection.prepare("DELETE FROM entries WHERE namespace_id = ?1 AND key = ?2")
        deleteExpired = try connection.prepare(
            """
            DELETE FROM entries WHERE id IN (
                SELECT id FROM entries WHERE namespace_id = ?1 AND expires_at <= ?2 LIMIT ?3)
            """)
        begin = try connection.prepare("BEGIN IMMEDIATE")
        commit = try connection.prepare("COMMIT")
    }

    /// The row id of the namespace CacheCore registered as `name`.
    func namespaceID(_ name: String) throws -> Int64 {
        let statement = try connection.prepare("SELECT id FROM namespaces WHERE name = ?1")
        sqlite3_bind_text(statement.handle, 1, name, -1, sqliteTransient)
        guard sqlite3_step(statement.handle) == SQLITE_ROW else { throw BenchError("no namespace \(name)") }
        return sqlite3_column_int64(statement.handle, 0)
    }

    /// The value stored for `key`, copied out as `Data` (what any caller needs), or `nil`.
    func get(namespaceID: Int64, key: String) throws -> Data? {
        let handle = select.handle
        defer { sqlite3_reset(handle) }
        sqlite3_bind_int64(handle, 1, namespaceID)
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

    /// Upserts one entry with the default policy's expiry; autocommits unless inside ``inTransaction(_:)``.
    func set(namespaceID: Int64, key: String, value: Data) throws {
        let handle = upsert.handle
        defer { sqlite3_reset(handle) }
        let now = Self.nowMilliseconds()
        sqlite3_bind_int64(handle, 1, namespaceID)
        sqlite3_bind_text(handle, 2, key, -1, sqliteTransient)
        value.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(handle, 3, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
        }
        sqlite3_bind_int64(handle, 4, Int64(value.count + key.utf8.count))
        sqlite3_bind_int64(handle, 5, now)
        sqlite3_bind_int64(handle, 6, now + Self.lifetime)
        try connection.check(sqlite3_step(handle), "upsert")
    }

    /// Deletes `key`; returns whether a row was there.
    func remove(namespaceID: Int64, key: String) throws -> Bool {
        let handle = delete.handle
        defer { sqlite3_reset(handle) }
        sqlite3_bind_int64(handle, 1, namespaceID)
        sqlite3_bind_text(handle, 2, key, -1, sqliteTransient)
        try connection.check(sqlite3_step(handle), "delete")
        return sqlite3_changes(connection.handle) > 0
    }

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT`.
    func inTransaction(_ body: () throws -> Void) throws {
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

    /// Deletes the namespace's expired entries, `batchSize` per autocommit statement; returns how many.
    func sweepExpired(namespaceID: Int64, batchSize: Int) throws -> Int {
        let handle = deleteExpired.handle
        let now = Self.nowMilliseconds()
        var total = 0
        while true {
            sqlite3_bind_int64(handle, 1, namespaceID)
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

    /// Wall-clock milliseconds, computed as CacheCore's `SystemClock` does.
    static func nowMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}
