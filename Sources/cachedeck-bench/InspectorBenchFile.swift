import CSQLite
import CacheCore
import Foundation

/// Builds the inspector benchmark's file: namespace `bench` with the requested entries and
/// `small` with 1000, rows written straight into the schema CacheCore created (much faster
/// than the API) with spread-out sizes, ages, expiries (10% never, 3% expired), hits (a third
/// never read), 1% tagged `hot`, 90% with a sort value (their creation time), and keys
/// inserted in shuffled order.
struct InspectorBenchFile {
    let path: String
    let entries: Int
    let valueBytes: Int

    static let smallEntries = 1000

    func build() throws {
        let creator = try CacheStore(path: path)
        _ = try creator.dataCache("bench", key: String.self)
        _ = try creator.dataCache("small", key: String.self)
        try creator.close()

        let connection = try RawConnection(path: path)
        try connection.execute("PRAGMA synchronous = OFF")
        let insert = try connection.prepare(
            """
            INSERT INTO entries (namespace_id, key, value, size, created_at, expires_at, stale_until, accessed_at, hits, tags, sort_value)
            VALUES ((SELECT id FROM namespaces WHERE name = ?1), ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?8, ?9, ?10)
            """)
        var generator = SplitMix64(seed: 0x1_4E5_EC7)
        let values = (0..<1024).map { _ in
            Workload.values(
                count: 1, size: Int.random(in: valueBytes / 10...valueBytes * 19 / 10, using: &generator),
                generator: &generator)[0]
        }
        let now = wallClockMilliseconds()
        let order = Array(0..<entries).shuffled(using: &generator)
        let chunk = 50_000
        for start in stride(from: 0, to: entries + Self.smallEntries, by: chunk) {
            try connection.execute("BEGIN")
            for index in start..<min(start + chunk, entries + Self.smallEntries) {
                let isSmall = index >= entries
                let key = isSmall ? Workload.key("s", index - entries) : Workload.key("k", order[index])
                try row(
                    key: key, in: isSmall ? "small" : "bench", value: values[index % values.count], now: now,
                    generator: &generator, insert: insert, connection: connection)
            }
            try connection.execute("COMMIT; PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    private func row(
        key: String, in namespace: String, value: Data, now: Int64, generator: inout SplitMix64,
        insert: RawStatement, connection: RawConnection
    ) throws {
        let handle = insert.handle
        defer { sqlite3_reset(handle) }
        let day: Int64 = 86_400_000
        let created = now - Int64.random(in: 0..<30 * day, using: &generator)
        let roll = Int.random(in: 0..<100, using: &generator)
        let expires: Int64? =
            switch roll {
            case 0..<10: nil
            case 10..<13: now - Int64.random(in: 1..<3_600_000, using: &generator)
            default: now + Int64.random(in: 1000..<10 * day, using: &generator)
            }
        sqlite3_bind_text(handle, 1, namespace, -1, sqliteTransient)
        sqlite3_bind_text(handle, 2, key, -1, sqliteTransient)
        value.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(handle, 3, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
        }
        sqlite3_bind_int64(handle, 4, Int64(value.count + key.utf8.count))
        sqlite3_bind_int64(handle, 5, created)
        if let expires { sqlite3_bind_int64(handle, 6, expires) } else { sqlite3_bind_null(handle, 6) }
        sqlite3_bind_int64(handle, 7, created + Int64.random(in: 0...(now - created), using: &generator))
        sqlite3_bind_int64(handle, 8, roll % 3 == 0 ? 0 : Int64.random(in: 1...1000, using: &generator))
        if roll == 99 {
            sqlite3_bind_text(handle, 9, "[\"hot\"]", -1, sqliteTransient)
        } else {
            sqlite3_bind_null(handle, 9)
        }
        // A sort value (a message's date, say) on all but a tenth of the entries.
        if roll % 10 == 5 { sqlite3_bind_null(handle, 10) } else { sqlite3_bind_int64(handle, 10, created) }
        try connection.check(sqlite3_step(handle), "insert")
    }
}
