/// The SQL behind ``Admin/check(_:)`` and ``Admin/repair()``. Each check reads the whole
/// table it checks (a million entries take about a second); the repairs touch only what the
/// checks find.
extension SQLiteConnection {
    /// SQLite's findings, empty when it answers `ok`. A check that stops at a page it cannot
    /// read keeps what it found and adds SQLite's error as the last finding.
    func sqliteProblems(_ depth: IntegrityCheckDepth) throws -> [String] {
        var messages: [String] = []
        do {
            try withDynamicStatement(depth == .quick ? "PRAGMA quick_check(100)" : "PRAGMA integrity_check(100)") {
                statement in
                while try statement.step() { messages.append(statement.text(0)) }
            }
        } catch let error as SQLiteError where error.isCorrupt {
            messages.append("the check stopped: \(error.message)")
        }
        return messages == ["ok"] ? [] : messages.flatMap { $0.split(separator: "\n").map(String.init) }
    }

    /// The namespaces whose counters differ from a count of their entries.
    func counterMismatches() throws -> [CounterMismatch] {
        try withStatement(
            """
            SELECT n.name, n.entry_count, coalesce(c.entries, 0), n.total_bytes, coalesce(c.bytes, 0)
            FROM namespaces n
            LEFT JOIN (
                -- total() and CAST saturate where sum() fails on sizes out of range.
                SELECT namespace_id, count(*) AS entries, CAST(total(size) AS INTEGER) AS bytes
                FROM entries GROUP BY namespace_id) c
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

    /// `entry_tags` rows that no entry's tag list accounts for: `entry_tags` `EXCEPT` the
    /// pairs the lists hold as the insert trigger stores them (text). `EXCEPT` sorts both
    /// sides once; a correlated `NOT EXISTS` would expand an entry's whole tag list once per
    /// tag row (quadratic in the tags of one entry: 20k tags took 16 s).
    func extraTagRowCount() throws -> Int {
        Int(
            try scalar(
                """
                SELECT count(*) FROM (
                    SELECT tag, entry_id FROM entry_tags
                    EXCEPT SELECT CAST(j.value AS TEXT), e.id FROM entries e, json_each(e.tags) j
                    WHERE e.tags IS NOT NULL AND json_valid(e.tags) AND j.value IS NOT NULL)
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
            INSERT OR IGNORE INTO entry_tags (tag, entry_id, namespace_id, key)
            SELECT j.value, e.id, e.namespace_id, e.key FROM entries e, json_each(e.tags) j
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
                SELECT tag, entry_id FROM entry_tags
                EXCEPT SELECT CAST(j.value AS TEXT), e.id FROM entries e, json_each(e.tags) j
                WHERE e.tags IS NOT NULL AND json_valid(e.tags) AND j.value IS NOT NULL
                LIMIT ?1)
            """, limit)
    }
}
