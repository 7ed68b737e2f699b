import Foundation

/// What a point read found through a namespace id this process resolved earlier.
enum EntryLookup {
    case found(StoredEntry)
    case missing
    /// The id is no longer the namespace's live row: resolve the name again.
    case moved
}

/// The SQL for reading and writing entries, kept in one place so it can be read as a whole.
extension SQLiteConnection {
    /// The entry `key` of the namespace `name` through the id this process resolved for it,
    /// or ``EntryLookup/moved`` when that id is no longer the namespace's live row (it was
    /// cleared or retired by another process since): one statement, one extra rowid probe.
    func lookupEntry(namespaceID: Int64, name: String, key: String) throws -> EntryLookup {
        try withStatement(
            """
            SELECT e.id, e.value, e.created_at, e.expires_at, e.stale_until, e.version, e.tags
            FROM namespaces n LEFT JOIN entries e ON e.namespace_id = n.id AND e.key = ?2
            WHERE n.id = ?1 AND n.name = ?3
            """
        ) { statement in
            statement.bind(namespaceID, key, name)
            return try statement.firstRow { row -> EntryLookup in
                guard !row.isNull(0) else { return .missing }
                return .found(
                    StoredEntry(
                        id: row.int64(0), value: row.blob(1), createdAt: row.int64(2), expiresAt: row.optionalInt64(3),
                        staleUntil: row.optionalInt64(4), version: row.text(5),
                        tagsJSON: row.isNull(6) ? nil : row.text(6)))
            } ?? .moved
        }
    }

    /// Writes one entry unless `namespaceID` is no longer the live row of namespace `name`
    /// (returns `false` then, having written nothing): one autocommit statement.
    ///
    /// The liveness check is the `namespace_id` value itself: the namespace row's id, or NULL
    /// when it is gone, which `OR IGNORE` turns into skipping the row (no other column can be
    /// NULL; the upsert still handles the key's conflict). `INSERT … SELECT … WHERE EXISTS`
    /// would say the same, but with row triggers on `entries` SQLite runs an INSERT's SELECT
    /// through a temporary b-tree, created and dropped on every set (a sixth of its work).
    func upsertEntry(namespaceID: Int64, ifLiveAs name: String, _ write: EntryWrite, version: String, now: Int64)
        throws -> Bool
    {
        try run(
            """
            INSERT OR IGNORE INTO entries (namespace_id, key, value, size, created_at, expires_at, stale_until, accessed_at, version, tags)
            VALUES ((SELECT id FROM namespaces WHERE id = ?1 AND name = ?11), ?2, ?3, ?4, ?5, ?6, ?7, ?10, ?8, ?9)
            ON CONFLICT (namespace_id, key) DO UPDATE SET
                value = excluded.value, size = excluded.size, created_at = excluded.created_at,
                expires_at = excluded.expires_at, stale_until = excluded.stale_until,
                accessed_at = excluded.accessed_at, version = excluded.version, tags = excluded.tags
            """,
            namespaceID, write.key, write.value, write.size, write.writtenAt, write.attributes.expiresAt,
            write.attributes.staleUntil, version, write.attributes.tagsJSON, now, name) > 0
    }

    /// Writes one entry, in a write transaction that checked the namespace is live
    /// (``isLiveNamespace(id:name:)``). `created_at` is when the set happened, `accessed_at`
    /// when it reached the file (`now`; later than the set with write-behind), which is what
    /// other processes' coherence checks look for.
    func upsertEntry(namespaceID: Int64, _ write: EntryWrite, version: String, now: Int64) throws {
        try run(
            """
            INSERT INTO entries (namespace_id, key, value, size, created_at, expires_at, stale_until, accessed_at, version, tags)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?10, ?8, ?9)
            ON CONFLICT (namespace_id, key) DO UPDATE SET
                value = excluded.value, size = excluded.size, created_at = excluded.created_at,
                expires_at = excluded.expires_at, stale_until = excluded.stale_until,
                accessed_at = excluded.accessed_at, version = excluded.version, tags = excluded.tags
            """,
            namespaceID, write.key, write.value, write.size, write.writtenAt, write.attributes.expiresAt,
            write.attributes.staleUntil, version, write.attributes.tagsJSON, now)
    }

    /// Deletes `key` of the live namespace `namespace` (in the caller's write transaction, with
    /// the counters); returns whether it was there.
    ///
    /// A point read finds the row, then the row is deleted by id and its namespace's counters
    /// adjusted: `DELETE … RETURNING` would collect its one row in a temporary b-tree, and the
    /// id found through `namespaces` is a live namespace's, so its partition counters need no
    /// update (see ``addToCounters(of:entries:bytes:)``).
    func deleteEntry(namespace: String, key: String) throws -> Bool {
        let found = try withStatement(
            """
            SELECT e.id, e.namespace_id, e.size
            FROM namespaces n JOIN entries e ON e.namespace_id = n.id AND e.key = ?2
            WHERE n.name = ?1
            """
        ) { statement in
            statement.bind(namespace, key)
            return try statement.firstRow { (id: $0.int64(0), namespaceID: $0.int64(1), size: $0.int(2)) }
        }
        guard let found else { return false }
        try run("DELETE FROM entries WHERE id = ?1", found.id)
        try run(
            "UPDATE namespaces SET entry_count = entry_count - 1, total_bytes = total_bytes - ?2 WHERE id = ?1",
            found.namespaceID, found.size)
        return true
    }

    /// Deletes up to `limit` entries past their stale window; returns how many.
    func deletePurgeable(namespaceID: Int64, now: Int64, limit: Int) throws -> Int {
        try fillDoomed(
            "SELECT id FROM entries WHERE namespace_id = ?1 AND expires_at <= ?2 AND stale_until <= ?2 LIMIT ?3",
            namespaceID, now, limit)
        return try deleteDoomed().entries
    }

    /// Entries that exist but have expired (not yet swept), found through the expiry index.
    func countExpired(namespaceID: Int64, now: Int64) throws -> Int {
        Int(
            try scalar("SELECT count(*) FROM entries WHERE namespace_id = ?1 AND expires_at <= ?2", namespaceID, now)
                ?? 0)
    }

    /// The namespace's entry and byte counters (kept exact by triggers).
    func namespaceTotals(namespaceID: Int64) throws -> (entries: Int, bytes: Int) {
        try withStatement("SELECT entry_count, total_bytes FROM namespaces WHERE id = ?1") { statement in
            statement.bind(namespaceID)
            return try statement.firstRow { ($0.int(0), $0.int(1)) } ?? (0, 0)
        }
    }

    /// The live row of namespace `name`, if any.
    func namespaceRow(name: String) throws -> (id: Int64, version: String, policyJSON: String)? {
        try withStatement("SELECT id, version, policy FROM namespaces WHERE name = ?1") { statement in
            statement.bind(name)
            return try statement.firstRow { ($0.int64(0), $0.text(1), $0.text(2)) }
        }
    }

    /// The live namespaces' ids (partitions are not namespaces: see ``Schema/partitions``).
    func namespaceIDs() throws -> [Int64] {
        try withStatement("SELECT id FROM namespaces ORDER BY id") { try $0.rows { $0.int64(0) } }
    }
}
