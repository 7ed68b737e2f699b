/// Rows whose numbers no CacheDeck process writes: times outside 1970–9999, negative or
/// impossibly large sizes, counters past 2^53. Readers saturate on them rather than trap; `check`
/// names them so an operator can see what was tampered with.
extension SQLiteConnection {
    /// Milliseconds since the epoch a time may hold: 1970-01-01 to 9999-12-31.
    static let plausibleTimes: ClosedRange<Int64> = 0...253_402_300_799_999
    /// Bytes an entry's size or a namespace's total may hold (1 TiB; a SQLite value is < 2 GiB).
    static let plausibleBytes: ClosedRange<Int64> = 0...(1 << 40)

    /// Up to `limit` rows out of range, each as `table row id: column value, …`.
    func outOfRangeRows(limit: Int = 100) throws -> [String] {
        // The bounds are parameters ?1…?5 (the limit ?6), bound below.
        let time = "NOT BETWEEN ?1 AND ?2"
        // Counters past 2^53 lose precision as the Double every rate is computed in.
        let count = "NOT BETWEEN 0 AND ?3"
        let bytes = "NOT BETWEEN ?4 AND ?5"
        let checks: [(table: String, id: String, columns: [(String, String)])] = [
            (
                "entries", "id",
                [
                    ("created_at", time), ("expires_at", time), ("stale_until", time), ("accessed_at", time),
                    ("size", bytes), ("hits", count),
                ]
            ),
            (
                "namespaces", "name",
                [("entry_count", count), ("total_bytes", count), ("created_at", time), ("updated_at", time)]
            ),
            (
                "clients", "id",
                [
                    ("started_at", time), ("last_seen", time), ("stopped_at", time),
                    ("heartbeat_interval", "NOT BETWEEN 0 AND 86400000"),
                ]
            ),
            (
                "stats", "namespace",
                [
                    ("bucket", time), ("resolution", "NOT BETWEEN 1 AND 86400000"), ("memory_hits", count),
                    ("disk_hits", count), ("misses", count), ("sets", count), ("evicted_bytes", count),
                    ("load_time", count),
                ]
            ),
        ]
        var found: [String] = []
        // One statement per table, its table and column names (the code's own) written into
        // the text: SQL takes no identifiers as parameters.
        for check in checks where found.count < limit {
            let selected = check.columns.map {
                "coalesce(CASE WHEN \($0.0) \($0.1) THEN '\($0.0) ' || \($0.0) || ', ' END, '')"
            }
            let condition = check.columns.map { "\($0.0) \($0.1)" }.joined(separator: " OR ")
            let sql = """
                SELECT '\(check.table) ' || quote(\(check.id)) || ': ' || rtrim(\(selected.joined(separator: " || ")), ', ')
                FROM \(check.table) WHERE \(condition) LIMIT ?6
                """
            found += try withDynamicStatement(sql) { statement in
                statement.bind(
                    Self.plausibleTimes.lowerBound, Self.plausibleTimes.upperBound, Int64(1) << 53,
                    Self.plausibleBytes.lowerBound, Self.plausibleBytes.upperBound, limit - found.count)
                return try statement.rows { $0.text(0) }
            }
        }
        return found
    }
}
