import CSQLite
import Foundation

/// Fills a namespace that CacheCore registered with many rows in a few statements (a
/// recursive CTE per 100,000 rows): untimed setup for sweeps of a million entries.
final class BulkFiller {
    private let connection: RawConnection
    private let insert: RawStatement

    init(path: String) throws {
        connection = try RawConnection(path: path)
        insert = try connection.prepare(
            """
            WITH RECURSIVE n(i) AS (SELECT ?3 UNION ALL SELECT i + 1 FROM n WHERE i < ?4)
            INSERT INTO entries (namespace_id, key, value, size, created_at, expires_at, stale_until, accessed_at,
                version, tags)
            SELECT (SELECT id FROM namespaces WHERE name = ?1), printf('%s%08d', ?2, i), randomblob(?5), ?5 + length(?2) + 8, ?6, ?7, ?7, ?6, '', NULL FROM n
            """)
    }

    /// Adds keys `<prefix>00000000` … of `count` rows of `valueSize` random bytes to the
    /// registered namespace `namespace`, expiring at `expiresAt` (ms since the epoch).
    func fill(namespace: String, prefix: String, count: Int, valueSize: Int, expiresAt: Int64) throws {
        let chunk = 100_000
        let now = wallClockMilliseconds()
        for start in stride(from: 0, to: count, by: chunk) {
            let handle = insert.handle
            sqlite3_bind_text(handle, 1, namespace, -1, sqliteTransient)
            sqlite3_bind_text(handle, 2, prefix, -1, sqliteTransient)
            sqlite3_bind_int64(handle, 3, Int64(start))
            sqlite3_bind_int64(handle, 4, Int64(min(start + chunk, count) - 1))
            sqlite3_bind_int64(handle, 5, Int64(valueSize))
            sqlite3_bind_int64(handle, 6, now)
            sqlite3_bind_int64(handle, 7, expiresAt)
            let code = sqlite3_step(handle)
            sqlite3_reset(handle)
            try connection.check(code, "bulk fill")
        }
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
