/// The SQL of format 3's trash tables (`v3_trash`, `v3_trash_names`) while ``Format3Trash``
/// moves their rows into trash partitions, a batch at a time through `temp.v3_batch`.
extension SQLiteConnection {
    /// Whether the file still holds format 3's trash table.
    func hasFormat3Trash() throws -> Bool {
        try scalar("SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'v3_trash')") == 1
    }

    /// Whether format 3's trash table holds no row.
    func format3TrashIsEmpty() throws -> Bool {
        try scalar("SELECT EXISTS (SELECT 1 FROM v3_trash)") == 0
    }

    /// Drops format 3's trash tables.
    func dropFormat3Trash() throws {
        try execute("DROP TABLE v3_trash; DROP TABLE v3_trash_names")
    }

    /// Lists the next `limit` rows of format 3's trash (in `(audit_id, entry_id)` order) in
    /// `temp.v3_batch`; returns how many.
    func takeFormat3TrashBatch(limit: Int) throws -> Int {
        try execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS v3_batch (audit_id INTEGER, entry_id INTEGER,
                PRIMARY KEY (audit_id, entry_id)) WITHOUT ROWID;
            DELETE FROM temp.v3_batch;
            """)
        return try run(
            "INSERT INTO temp.v3_batch SELECT audit_id, entry_id FROM v3_trash ORDER BY audit_id, entry_id LIMIT ?1",
            limit)
    }

    /// The actions and namespace names of the batch's rows (a partition each).
    func format3TrashBatchGroups() throws -> [(auditID: Int64, name: String)] {
        try withStatement(
            """
            SELECT DISTINCT t.audit_id, coalesce(nm.name, '')
            FROM temp.v3_batch b CROSS JOIN v3_trash t ON t.audit_id = b.audit_id AND t.entry_id = b.entry_id
            LEFT JOIN v3_trash_names nm ON nm.id = t.namespace_id
            """
        ) { try $0.rows { ($0.int64(0), $0.text(1)) } }
    }

    /// The first trash partition (not a whole namespace's) of action `auditID` for `name`.
    func trashPartitionID(auditID: Int64, name: String) throws -> Int64? {
        try withStatement(
            "SELECT id FROM partitions WHERE audit_id = ?1 AND name = ?2 AND whole = 0 ORDER BY id LIMIT 1"
        ) { statement in
            statement.bind(auditID, name)
            return try statement.firstRow { $0.int64(0) }
        }
    }

    /// When action `id` ran, if its audit row is still there.
    func auditTime(id: Int64) throws -> Int64? {
        try scalar("SELECT at FROM audit WHERE id = ?1", id)
    }

    /// Inserts the batch's rows of action `auditID` and namespace `name` into `partition` (a
    /// key already there keeps its first row); returns how many it inserted and their bytes.
    func insertFormat3TrashBatch(auditID: Int64, name: String, into partition: Int64) throws -> (
        entries: Int, bytes: Int
    ) {
        let before = try entryIDRange()?.upperBound ?? 0
        try run(
            """
            INSERT INTO entries (namespace_id, key, value, size, created_at, expires_at, stale_until, accessed_at,
                                 hits, version, tags)
            SELECT ?1, t.key, t.value, t.size, t.created_at, t.expires_at, t.stale_until, t.accessed_at, t.hits,
                   t.version, t.tags
            FROM temp.v3_batch b CROSS JOIN v3_trash t ON t.audit_id = b.audit_id AND t.entry_id = b.entry_id
            WHERE t.audit_id = ?2 AND coalesce((SELECT name FROM v3_trash_names WHERE id = t.namespace_id), '') = ?3
            ORDER BY t.audit_id, t.entry_id
            ON CONFLICT (namespace_id, key) DO NOTHING
            """,
            partition, auditID, name)
        // `+namespace_id`: the new rows by row id, never the partition through an index (which
        // would count the whole partition again every batch).
        return try withStatement(
            "SELECT count(*), coalesce(sum(size), 0) FROM entries WHERE id > ?1 AND +namespace_id = ?2"
        ) { statement in
            statement.bind(before, partition)
            return try statement.firstRow { ($0.int(0), $0.int(1)) }
        } ?? (0, 0)
    }

    /// Deletes the batch's rows from format 3's trash.
    func deleteFormat3TrashBatch() throws {
        try run("DELETE FROM v3_trash WHERE (audit_id, entry_id) IN (SELECT audit_id, entry_id FROM temp.v3_batch)")
    }
}
