import Foundation

/// The SQL behind ``Admin``: audit rows, batched removal into the trash, and restore.
extension SQLiteConnection {
    func insertAudit(origin: ActionOrigin, target: String?, restores: Int64?, now: Int64) throws -> Int64 {
        try run(
            "INSERT INTO audit (at, user, host, pid, program, target, restores) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            now, origin.user, origin.host, Int64(origin.pid), origin.program, target, restores)
        return lastInsertedRowID
    }

    /// Removes up to `limit` entries of `scope` that existed when the action started (`start`:
    /// written by then, and inserted as a row id up to then), copying them to the trash under
    /// `auditID` when `keepInTrash`; returns how many and their bytes.
    func removeBatch(
        _ scope: EntryScope, start: (time: Int64, lastRowID: Int64), auditID: Int64, keepInTrash: Bool, limit: Int
    ) throws -> (Int, Int) {
        try execute("CREATE TEMP TABLE IF NOT EXISTS doomed (id INTEGER PRIMARY KEY); DELETE FROM temp.doomed;")
        try withDynamicStatement(
            """
            INSERT INTO temp.doomed SELECT e.id FROM entries e
            WHERE (\(scope.condition)) AND e.created_at <= ?11 AND e.id <= ?12 LIMIT ?10
            """
        ) { statement in
            scope.bind(to: statement)
            Int64(limit).bind(to: statement, at: 10)
            start.time.bind(to: statement, at: 11)
            start.lastRowID.bind(to: statement, at: 12)
            _ = try statement.run()
        }
        if keepInTrash {
            try run(
                """
                INSERT INTO trash (audit_id, entry_id, namespace_id, key, value, size, created_at, expires_at,
                                   stale_until, accessed_at, hits, version, tags)
                SELECT ?1, id, namespace_id, key, value, size, created_at, expires_at, stale_until, accessed_at,
                       hits, version, tags
                FROM entries WHERE id IN temp.doomed
                """,
                auditID)
        }
        let (count, bytes) = try withStatement(
            "SELECT count(*), coalesce(sum(size), 0) FROM entries WHERE id IN temp.doomed"
        ) { try $0.firstRow { ($0.int(0), $0.int(1)) } ?? (0, 0) }
        try run("DELETE FROM entries WHERE id IN temp.doomed")
        return (count, bytes)
    }

    /// Moves up to `limit` trash rows of `auditID` back into `entries` (a key written again
    /// since keeps its new value). Returns the rows taken from the trash, those restored and
    /// their bytes.
    func restoreTrashBatch(auditID: Int64, limit: Int) throws -> (taken: Int, restored: Int, bytes: Int) {
        let bytes =
            try scalar(
                """
                SELECT coalesce(sum(size), 0) FROM (SELECT * FROM trash WHERE audit_id = ?1 ORDER BY entry_id LIMIT ?2) t
                WHERE NOT EXISTS (SELECT 1 FROM entries e WHERE e.namespace_id = t.namespace_id AND e.key = t.key)
                """, auditID, limit) ?? 0
        let restored = try run(
            """
            INSERT INTO entries (namespace_id, key, value, size, created_at, expires_at, stale_until, accessed_at,
                                 hits, version, tags)
            SELECT namespace_id, key, value, size, created_at, expires_at, stale_until, accessed_at, hits, version, tags
            FROM (SELECT * FROM trash WHERE audit_id = ?1 ORDER BY entry_id LIMIT ?2) WHERE true
            ON CONFLICT (namespace_id, key) DO NOTHING
            """,
            auditID, limit)
        let taken = try run(
            """
            DELETE FROM trash WHERE audit_id = ?1 AND entry_id IN (
                SELECT entry_id FROM trash WHERE audit_id = ?1 ORDER BY entry_id LIMIT ?2)
            """,
            auditID, limit)
        return (taken, restored, Int(bytes))
    }

    /// Deletes up to `limit` trash rows of actions run before `cutoff`; returns how many.
    func purgeTrash(before cutoff: Int64, limit: Int) throws -> Int {
        try run(
            """
            DELETE FROM trash WHERE (audit_id, entry_id) IN (
                SELECT t.audit_id, t.entry_id FROM trash t JOIN audit a ON a.id = t.audit_id
                WHERE a.at < ?1 LIMIT ?2)
            """,
            cutoff, limit)
    }

    /// Deletes audit rows of actions run before `cutoff` whose trash is gone; returns how many.
    func purgeAudit(before cutoff: Int64) throws -> Int {
        try run(
            "DELETE FROM audit WHERE at < ?1 AND NOT EXISTS (SELECT 1 FROM trash t WHERE t.audit_id = audit.id)",
            cutoff)
    }

    /// Hits recorded since `since` on the namespace (or the store), through the access index.
    func recentHits(since: Int64, namespace: String?) throws -> Int {
        if let namespace {
            guard let id = try namespaceRow(name: namespace)?.id else { return 0 }
            return Int(
                try scalar(
                    "SELECT coalesce(sum(hits), 0) FROM entries WHERE namespace_id = ?1 AND accessed_at >= ?2", id,
                    since) ?? 0)
        }
        return Int(
            try scalar("SELECT coalesce(sum(hits), 0) FROM entries WHERE accessed_at >= ?1", since) ?? 0)
    }

    /// The newest `limit` audit rows, or only row `id`.
    func auditRecords(limit: Int, id: Int64? = nil) throws -> [AuditRecord] {
        let decoder = JSONDecoder()
        return try withStatement(
            """
            SELECT a.id, a.at, a.user, a.host, a.pid, a.program, a.target, a.restores, a.entries, a.bytes,
                   a.undone_at, EXISTS (SELECT 1 FROM trash t WHERE t.audit_id = a.id)
            FROM audit a WHERE ?2 IS NULL OR a.id = ?2 ORDER BY a.id DESC LIMIT ?1
            """
        ) { statement in
            statement.bind(Int64(limit), id)
            return try statement.rows { row in
                AuditRecord(
                    id: row.int64(0), at: row.int64(1),
                    origin: ActionOrigin(
                        user: row.text(2), host: row.text(3), pid: Int32(truncatingIfNeeded: row.int64(4)),
                        program: row.text(5)),
                    target: row.isNull(6)
                        ? nil : try? decoder.decode(AdminTarget.self, from: Data(row.text(6).utf8)),
                    restoredAuditID: row.optionalInt64(7), entries: row.int(8), bytes: row.int(9),
                    undoneAt: row.optionalInt64(10), canUndo: row.int64(11) != 0 && row.isNull(10))
            }
        }
    }
}
