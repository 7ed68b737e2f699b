/// The SQL behind ``Admin/check(_:)`` and ``Admin/repair()``. Each check reads the whole
/// table it checks (a million entries take about a second); the repairs touch only what the
/// checks find.
extension SQLiteConnection {
    /// SQLite's findings, empty when it answers `ok`.
    func sqliteProblems(_ depth: IntegrityCheckDepth) throws -> [String] {
        let messages =
            switch depth {
            case .quick: try withStatement("PRAGMA quick_check(100)") { try $0.rows { $0.text(0) } }
            case .full: try withStatement("PRAGMA integrity_check(100)") { try $0.rows { $0.text(0) } }
            }
        return messages == ["ok"] ? [] : messages
    }

    /// The namespaces whose counters differ from a count of their entries.
    func counterMismatches() throws -> [CounterMismatch] {
        try withStatement(
            """
            SELECT n.name, n.entry_count, coalesce(c.entries, 0), n.total_bytes, coalesce(c.bytes, 0)
            FROM namespaces n
            LEFT JOIN (SELECT namespace_id, count(*) AS entries, sum(size) AS bytes FROM entries GROUP BY namespace_id) c
                ON c.namespace_id = n.id
            WHERE n.entry_count != coalesce(c.entries, 0) OR n.total_bytes != coalesce(c.bytes, 0)
            ORDER BY n.name
            """
        ) { statement in
            try statement.rows { row in
                CounterMismatch(
                    namespace: row.text(0), recordedEntries: row.int(1), actualEntries: row.int(2),
                    recordedBytes: row.int64(3), actualBytes: row.int64(4))
            }
        }
    }

    /// Tag pairs the entries list that `entry_tags` lacks (as the insert trigger derives them).
    func missingTagRowCount() throws -> Int {
        Int(
            try scalar(
                """
                SELECT count(*) FROM entries e, json_each(e.tags) j
                WHERE e.tags IS NOT NULL AND json_valid(e.tags) AND j.value IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM entry_tags t WHERE t.tag = j.value AND t.entry_id = e.id)
                """) ?? 0)
    }

    /// `entry_tags` rows that no entry's tag list accounts for.
    func extraTagRowCount() throws -> Int {
        Int(
            try scalar(
                """
                SELECT count(*) FROM entry_tags t WHERE NOT EXISTS (
                    SELECT 1 FROM entries e, json_each(e.tags) j
                    WHERE e.id = t.entry_id AND e.tags IS NOT NULL AND json_valid(e.tags) AND j.value = t.tag)
                """) ?? 0)
    }

    /// Entries whose tag list is not valid JSON.
    func malformedTagListCount() throws -> Int {
        Int(try scalar("SELECT count(*) FROM entries WHERE tags IS NOT NULL AND NOT json_valid(tags)") ?? 0)
    }

    /// Entries whose namespace (or partition) row is gone.
    func orphanedEntryCount() throws -> Int {
        Int(
            try scalar(
                """
                SELECT count(*) FROM entries
                WHERE namespace_id NOT IN (SELECT id FROM namespaces UNION ALL SELECT id FROM partitions)
                """) ?? 0)
    }

    /// Recounts the counters of namespace `name` from its entries; whether they changed.
    func recountNamespace(named name: String) throws -> Bool {
        try run(
            """
            UPDATE namespaces SET
                entry_count = (SELECT count(*) FROM entries WHERE namespace_id = namespaces.id),
                total_bytes = (SELECT coalesce(sum(size), 0) FROM entries WHERE namespace_id = namespaces.id)
            WHERE name = ?1 AND (
                entry_count != (SELECT count(*) FROM entries WHERE namespace_id = namespaces.id)
                OR total_bytes != (SELECT coalesce(sum(size), 0) FROM entries WHERE namespace_id = namespaces.id))
            """, name) > 0
    }

    /// Adds up to `limit` missing tag rows; returns how many.
    func insertMissingTagRows(limit: Int) throws -> Int {
        try run(
            """
            INSERT OR IGNORE INTO entry_tags (tag, entry_id)
            SELECT j.value, e.id FROM entries e, json_each(e.tags) j
            WHERE e.tags IS NOT NULL AND json_valid(e.tags) AND j.value IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM entry_tags t WHERE t.tag = j.value AND t.entry_id = e.id)
            LIMIT ?1
            """, limit)
    }

    /// Removes up to `limit` tag rows no entry lists; returns how many.
    func deleteExtraTagRows(limit: Int) throws -> Int {
        try run(
            """
            DELETE FROM entry_tags WHERE (tag, entry_id) IN (
                SELECT t.tag, t.entry_id FROM entry_tags t WHERE NOT EXISTS (
                    SELECT 1 FROM entries e, json_each(e.tags) j
                    WHERE e.id = t.entry_id AND e.tags IS NOT NULL AND json_valid(e.tags) AND j.value = t.tag)
                LIMIT ?1)
            """, limit)
    }
}
