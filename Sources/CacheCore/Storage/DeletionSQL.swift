import Foundation

/// The deletion engine: every removal of entries — a sweep, eviction, an invalidation by
/// prefix or tag, an admin action, a partition's purge — lists the doomed row ids in
/// `temp.doomed`, then ``deleteDoomed()`` adjusts each namespace's (or partition's) counters
/// once per batch and deletes the rows. (Format 3 ran a counter trigger per deleted row, a
/// third of a sweep's time.) Run it in the caller's write transaction. Removing keys by name
/// (`remove`, an invalidation of keys) deletes each by a point delete of its own
/// (``deleteEntry(namespace:key:)``), which adjusts the counters the same way; a sweep's batch
/// (``deleteExpired(namespaceID:now:keepingStaleWindow:limit:)``) sums its bytes from the expiry index.
extension SQLiteConnection {
    /// Empties `temp.doomed` (creating it on first use).
    func clearDoomed() throws {
        try execute("CREATE TEMP TABLE IF NOT EXISTS doomed (id INTEGER PRIMARY KEY); DELETE FROM temp.doomed;")
    }

    /// Fills `temp.doomed` with the ids `select` (a fixed query) returns, `?1`… bound to
    /// `values`; returns how many.
    @discardableResult
    func fillDoomed<each V: SQLiteBindable>(_ select: StaticString, _ values: repeat each V) throws -> Int {
        try clearDoomed()
        return try withDynamicStatement("INSERT INTO temp.doomed " + select.description) { statement in
            statement.bind(repeat each values)
            return try statement.run()
        }
    }

    /// Fills `temp.doomed` with `ids`.
    func fillDoomed(ids: some Collection<Int64>) throws {
        try fillDoomed("SELECT value FROM json_each(?1)", Self.jsonArray(ids))
    }

    /// Fills `temp.doomed` with those of `ids` that are entries of a live namespace written
    /// by `start` (a row's key never changes, and its expiry and tags only when it is written,
    /// so what a scope selected before `start` still matches it otherwise).
    func fillDoomed(ids: some Collection<Int64>, writtenBy start: Int64) throws {
        try fillDoomed(
            """
            SELECT e.id FROM json_each(?1) j CROSS JOIN entries e ON e.id = j.value
            WHERE e.created_at <= ?2 AND e.namespace_id IN (SELECT id FROM namespaces)
            """, Self.jsonArray(ids), start)
    }

    /// `ids` as a JSON array, for `json_each` (a tenth of the time `JSONEncoder` takes).
    static func jsonArray(_ ids: some Collection<Int64>) -> String {
        var json = "["
        json.reserveCapacity(ids.count * 8 + 2)
        for (offset, id) in ids.enumerated() {
            if offset > 0 { json += "," }
            json += String(id)
        }
        return json + "]"
    }

    /// Deletes the entries listed in `temp.doomed` and takes them off their namespaces' (or
    /// partitions') counters; returns how many and their bytes.
    @discardableResult
    func deleteDoomed() throws -> (entries: Int, bytes: Int) {
        let groups = try withStatement(
            """
            SELECT namespace_id, count(*), coalesce(sum(size), 0) FROM entries
            WHERE id IN temp.doomed GROUP BY namespace_id
            """
        ) { try $0.rows { ($0.int64(0), $0.int(1), $0.int(2)) } }
        var total = (entries: 0, bytes: 0)
        for (namespaceID, entries, bytes) in groups {
            try addToCounters(of: namespaceID, entries: -entries, bytes: -bytes)
            total.entries += entries
            total.bytes += bytes
        }
        try run("DELETE FROM entries WHERE id IN temp.doomed")
        return total
    }

    /// Adds to the counters of namespace or partition `id` (only one of the two has it).
    func addToCounters(of id: Int64, entries: Int, bytes: Int) throws {
        try run(
            "UPDATE namespaces SET entry_count = entry_count + ?2, total_bytes = total_bytes + ?3 WHERE id = ?1", id,
            entries, bytes)
        try run(
            "UPDATE partitions SET entry_count = entry_count + ?2, total_bytes = total_bytes + ?3 WHERE id = ?1", id,
            entries, bytes)
    }
}
