import Foundation

/// The SQL behind ``Admin``: audit rows, batched removal into the trash, and restore.
extension SQLiteConnection {
    func insertAudit(origin: ActionOrigin, target: String?, restores: Int64?, now: Int64) throws -> Int64 {
        try run(
            "INSERT INTO audit (at, user, host, pid, program, target, restores) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            now, origin.user, origin.host, Int64(origin.pid), origin.program, target, restores)
        return lastInsertedRowID
    }

    /// The ids of every entry of `scope` that existed when the action started (`start`: written
    /// by then, and inserted as a row id up to then), in row id order. One read, so batches
    /// never scan what earlier ones already took.
    func scopeIDs(_ scope: EntryScope, start: (time: Int64, lastRowID: Int64)) throws -> [Int64] {
        try withDynamicStatement(
            """
            SELECT e.id FROM entries e
            WHERE (\(scope.condition)) AND e.created_at <= ?11 AND e.id <= ?12
                AND e.namespace_id IN (SELECT id FROM namespaces)
            ORDER BY e.id
            """
        ) { statement in
            scope.bind(to: statement)
            statement.bind(from: 11, start.time, start.lastRowID)
            return try statement.rows { $0.int64(0) }
        }
    }

    /// The namespaces (live ids) the entries in `temp.doomed` belong to, with their names,
    /// and how many of those entries each holds and their bytes.
    func doomedNamespaces() throws -> [(id: Int64, name: String, entries: Int, bytes: Int)] {
        try withStatement(
            """
            SELECT n.id, n.name, count(*), coalesce(sum(e.size), 0)
            FROM temp.doomed d CROSS JOIN entries e ON e.id = d.id JOIN namespaces n ON n.id = e.namespace_id
            GROUP BY n.id
            """
        ) { try $0.rows { ($0.int64(0), $0.text(1), $0.int(2), $0.int(3)) } }
    }

    /// Deletes audit rows of actions run before `cutoff` whose trash is gone; returns how many.
    func purgeAudit(before cutoff: Int64) throws -> Int {
        try run(
            """
            DELETE FROM audit WHERE at < ?1 AND NOT EXISTS (SELECT 1 FROM partitions p WHERE p.audit_id = audit.id)
                AND NOT EXISTS (SELECT 1 FROM expiry_trash t WHERE t.audit_id = audit.id)
            """,
            cutoff)
    }

    /// Records that action `auditID` was undone at `now`.
    func markUndone(_ auditID: Int64, at now: Int64) throws {
        try run("UPDATE audit SET undone_at = ?2 WHERE id = ?1", auditID, now)
    }

    /// Records that action `auditID` ended (or got this far): what it removed so far.
    func finishAudit(_ auditID: Int64, entries: Int, bytes: Int, now: Int64?) throws {
        try run(
            "UPDATE audit SET entries = ?2, bytes = ?3, finished_at = ?4 WHERE id = ?1", auditID, entries, bytes, now)
    }

    /// The newest `limit` audit rows, or only row `id`. In a file whose migration from format
    /// 3 is still moving trash rows (see ``Format3Trash``), the rows not yet moved count as the
    /// trash of their actions too.
    func auditRecords(limit: Int, id: Int64? = nil) throws -> [AuditRecord] {
        try readTransaction {
            let pending = try Format3Trash.isPending(self)
            let canUndo =
                "EXISTS (SELECT 1 FROM partitions p WHERE p.audit_id = a.id)"
                + " OR EXISTS (SELECT 1 FROM expiry_trash t WHERE t.audit_id = a.id)"
                + " OR CASE WHEN json_valid(a.target) THEN json_extract(a.target, '$.importEntries.record.replaced') = 0 END"
                + (pending ? " OR EXISTS (SELECT 1 FROM v3_trash t WHERE t.audit_id = a.id)" : "")
            let v3Keys =
                pending
                ? """
                UNION ALL
                SELECT coalesce(nm.name, '') || '/' || t.key FROM v3_trash t
                LEFT JOIN v3_trash_names nm ON nm.id = t.namespace_id WHERE t.audit_id = a.id
                """ : ""
            return try withDynamicStatement(
                """
                SELECT a.id, a.at, a.user, a.host, a.pid, a.program, a.target, a.restores, a.entries, a.bytes,
                       a.undone_at, \(canUndo), a.finished_at,
                       (SELECT json_group_array(k) FROM (
                           SELECT p.name || '/' || e.key AS k FROM partitions p JOIN entries e ON e.namespace_id = p.id
                           WHERE p.audit_id = a.id
                           UNION ALL
                           SELECT n.name || '/' || e.key FROM expiry_trash t CROSS JOIN entries e ON e.id = t.entry_id
                           JOIN namespaces n ON n.id = e.namespace_id WHERE t.audit_id = a.id
                           \(v3Keys)
                           LIMIT 5))
                FROM audit a WHERE ?2 IS NULL OR a.id = ?2 ORDER BY a.id DESC LIMIT ?1
                """
            ) { statement in
                statement.bind(Int64(limit), id)
                return try statement.rows(Self.auditRecord)
            }
        }
    }

    /// One row of ``auditRecords(limit:id:)``'s query.
    private static func auditRecord(_ row: SQLiteStatement) throws -> AuditRecord {
        let decoder = JSONDecoder()
        return AuditRecord(
            id: row.int64(0), at: row.int64(1),
            origin: ActionOrigin(
                user: row.text(2), host: row.text(3), pid: Int32(truncatingIfNeeded: row.int64(4)),
                program: row.text(5)),
            target: row.isNull(6) ? nil : try? decoder.decode(AdminTarget.self, from: Data(row.text(6).utf8)),
            restoredAuditID: row.optionalInt64(7), entries: row.int(8), bytes: row.int(9),
            undoneAt: row.optionalInt64(10), canUndo: row.int64(11) != 0 && row.isNull(10),
            sampleKeys: (try? decoder.decode([String].self, from: Data(row.text(13).utf8))) ?? [],
            finishedAt: row.optionalInt64(12))
    }
}

/// The SQL of previews: counts, bytes and sample keys of a scope.
extension SQLiteConnection {
    /// The scope's entries, their bytes and the hits of those read since `recentSince`.
    func scopeTotals(_ scope: EntryScope, recentSince: Int64) throws -> (entries: Int, bytes: Int, recentHits: Int) {
        try withDynamicStatement(
            """
            SELECT count(*), coalesce(sum(e.size), 0),
                   coalesce(sum(CASE WHEN e.accessed_at >= ?10 THEN e.hits END), 0)
            FROM entries e WHERE \(scope.condition)
            """
        ) { statement in
            scope.bind(to: statement)
            statement.bind(from: 10, recentSince)
            return try statement.firstRow { ($0.int(0), $0.int(1), $0.int(2)) } ?? (0, 0, 0)
        }
    }

    /// Up to `limit` of the scope's keys, as `namespace/key`.
    func sampleKeys(_ scope: EntryScope, limit: Int) throws -> [String] {
        try withDynamicStatement(
            """
            SELECT n.name || '/' || e.key FROM entries e JOIN namespaces n ON n.id = e.namespace_id
            WHERE \(scope.condition) LIMIT ?10
            """
        ) { statement in
            scope.bind(to: statement)
            statement.bind(from: 10, limit)
            return try statement.rows { $0.text(0) }
        }
    }
}
