import Foundation

/// The SQL of imports: which keys a namespace already holds, and the rows an import wrote.
extension SQLiteConnection {
    /// How many of `keys` (a JSON array) namespace `namespaceID` holds, and their bytes.
    func heldKeys(namespaceID: Int64, keysJSON: String) throws -> (entries: Int, bytes: Int) {
        try withStatement(
            """
            SELECT count(*), coalesce(sum(e.size), 0)
            FROM json_each(?1) j CROSS JOIN entries e ON e.namespace_id = ?2 AND e.key = j.value
            """
        ) { statement in
            statement.bind(keysJSON, namespaceID)
            return try statement.firstRow { ($0.int(0), $0.int(1)) } ?? (0, 0)
        }
    }

    /// Fills `temp.doomed` with the rows of `keys` (a JSON array) in namespace `namespaceID`.
    func fillDoomed(namespaceID: Int64, keysJSON: String) throws {
        try fillDoomed(
            "SELECT e.id FROM json_each(?1) j CROSS JOIN entries e ON e.namespace_id = ?2 AND e.key = j.value",
            keysJSON, namespaceID)
    }

    /// Fills `temp.doomed` with the rows an import wrote into namespace `name` that nothing
    /// wrote since: ids in `rowIDs`, stamped before the import ran (`importedAt`).
    func fillDoomed(imported rowIDs: ClosedRange<Int64>, namespace name: String, importedAt: Int64) throws {
        try fillDoomed(
            """
            SELECT e.id FROM entries e JOIN namespaces n ON n.id = e.namespace_id AND n.name = ?1
            WHERE e.id BETWEEN ?2 AND ?3 AND e.created_at < ?4
            """, name, rowIDs.lowerBound, rowIDs.upperBound, importedAt)
    }

    /// The largest entry row id (0 for none).
    func lastEntryID() throws -> Int64 {
        try scalar("SELECT coalesce(max(id), 0) FROM entries") ?? 0
    }
}

extension SQLiteConnection {
    /// Records audit row `id`'s target (an import knows it whole only at its end).
    func setAuditTarget(_ id: Int64, _ target: String) throws {
        try run("UPDATE audit SET target = ?2 WHERE id = ?1", id, target)
    }
}
