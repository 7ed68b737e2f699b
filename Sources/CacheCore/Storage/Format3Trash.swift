/// Format 3's trash rows in a file migrated to format 4, moved into trash partitions in
/// bounded batches after the short schema step (see ``Schema/partitions``).
///
/// The table `v3_trash` is the progress marker: it holds the rows still to move, and each
/// batch moves up to ``batchSize`` of them in one write transaction (inserted into their
/// action's partition and deleted from `v3_trash` together), so a kill between or inside
/// batches loses nothing and the next read-write open resumes. The batch that finds it empty
/// drops it with `v3_trash_names`. Other processes' reads and writes interleave between
/// batches; while rows remain, ``SQLiteConnection/auditRecords(limit:id:)`` counts them as
/// trash, so their actions still read as undoable.
enum Format3Trash {
    /// Rows moved per transaction.
    static let batchSize = 1000

    /// Whether the file still holds format 3's trash table.
    static func isPending(_ connection: SQLiteConnection) throws -> Bool {
        try connection.scalar(
            "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'v3_trash')") == 1
    }

    /// Drops the tables when they hold nothing to move (a new file, or a format-3 file with
    /// an empty trash). Run it in the schema step's transaction.
    static func dropIfEmpty(_ connection: SQLiteConnection) throws {
        guard try isPending(connection), try connection.scalar("SELECT EXISTS (SELECT 1 FROM v3_trash)") == 0 else {
            return
        }
        try connection.execute("DROP TABLE v3_trash; DROP TABLE v3_trash_names")
    }

    /// Moves what is left, batch by batch; returns the rows moved and the batches it took
    /// (0 and 0 when nothing was pending).
    static func moveAll(_ connection: SQLiteConnection, now: () -> Int64) throws -> (rows: Int, batches: Int) {
        var total = (rows: 0, batches: 0)
        while let moved = try moveBatch(connection, limit: batchSize, now: now()) {
            total.rows += moved
            total.batches += 1
        }
        return total
    }

    /// Moves the next `limit` rows (in `(audit_id, entry_id)` order) into their actions'
    /// partitions in one transaction; returns how many, or `nil` once nothing is left (the
    /// tables are then dropped).
    static func moveBatch(_ connection: SQLiteConnection, limit: Int, now: Int64) throws -> Int? {
        try connection.writeTransaction {
            guard try isPending(connection) else { return nil }
            try connection.execute(
                """
                CREATE TEMP TABLE IF NOT EXISTS v3_batch (audit_id INTEGER, entry_id INTEGER,
                    PRIMARY KEY (audit_id, entry_id)) WITHOUT ROWID;
                DELETE FROM temp.v3_batch;
                """)
            let taken = try connection.run(
                "INSERT INTO temp.v3_batch SELECT audit_id, entry_id FROM v3_trash ORDER BY audit_id, entry_id LIMIT ?1",
                Int64(limit))
            guard taken > 0 else {
                try connection.execute("DROP TABLE v3_trash; DROP TABLE v3_trash_names")
                return nil
            }
            for group in try groups(connection) {
                let partition = try partitionID(for: group, on: connection, now: now)
                try move(group, into: partition, on: connection)
            }
            try connection.run(
                "DELETE FROM v3_trash WHERE (audit_id, entry_id) IN (SELECT audit_id, entry_id FROM temp.v3_batch)")
            return taken
        }
    }

    /// The actions and namespace names of the batch's rows (a partition each).
    private static func groups(_ connection: SQLiteConnection) throws -> [(auditID: Int64, name: String)] {
        try connection.withStatement(
            """
            SELECT DISTINCT t.audit_id, coalesce(nm.name, '')
            FROM temp.v3_batch b CROSS JOIN v3_trash t ON t.audit_id = b.audit_id AND t.entry_id = b.entry_id
            LEFT JOIN v3_trash_names nm ON nm.id = t.namespace_id
            """
        ) { try $0.rows { ($0.int64(0), $0.text(1)) } }
    }

    /// The trash partition of action `group.auditID` for namespace `group.name`, created on
    /// first use with the action's time (or `now` when its audit row is gone).
    private static func partitionID(
        for group: (auditID: Int64, name: String), on connection: SQLiteConnection, now: Int64
    ) throws -> Int64 {
        let existing = try connection.withStatement(
            "SELECT id FROM partitions WHERE audit_id = ?1 AND name = ?2 AND whole = 0 ORDER BY id LIMIT 1"
        ) { statement in
            statement.bind(group.auditID, group.name)
            return try statement.firstRow { $0.int64(0) }
        }
        if let existing { return existing }
        let at = try connection.scalar("SELECT at FROM audit WHERE id = ?1", group.auditID) ?? now
        return try connection.insertTrashPartition(name: group.name, auditID: group.auditID, now: at)
    }

    /// Inserts the batch's rows of `group` into partition `partition` (a key already there
    /// keeps its first row, as the single-step migration did) and adds them to its counters.
    private static func move(
        _ group: (auditID: Int64, name: String), into partition: Int64, on connection: SQLiteConnection
    ) throws {
        let before = try connection.entryIDRange()?.upperBound ?? 0
        try connection.run(
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
            partition, group.auditID, group.name)
        // `+namespace_id`: the new rows by row id, never the partition through an index (which
        // would count the whole partition again every batch).
        let added =
            try connection.withStatement(
                "SELECT count(*), coalesce(sum(size), 0) FROM entries WHERE id > ?1 AND +namespace_id = ?2"
            ) { statement in
                statement.bind(before, partition)
                return try statement.firstRow { ($0.int(0), $0.int(1)) }
            } ?? (0, 0)
        try connection.addToCounters(of: partition, entries: added.0, bytes: added.1)
    }
}
