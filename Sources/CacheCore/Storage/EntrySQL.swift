import Foundation

/// The SQL for reading and writing entries, kept in one place so it can be read as a whole.
extension SQLiteConnection {
    func lookupEntry(namespaceID: Int64, key: String) throws -> StoredEntry? {
        try withStatement(
            """
            SELECT id, value, created_at, expires_at, stale_until, version, tags
            FROM entries WHERE namespace_id = ?1 AND key = ?2
            """
        ) { statement in
            statement.bind(namespaceID, key)
            return try statement.firstRow { row in
                StoredEntry(
                    id: row.int64(0), value: row.blob(1), createdAt: row.int64(2), expiresAt: row.optionalInt64(3),
                    staleUntil: row.optionalInt64(4), version: row.text(5),
                    tagsJSON: row.isNull(6) ? nil : row.text(6))
            }
        }
    }

    /// Writes one entry: `created_at` is when the set happened, `accessed_at` when it reached
    /// the file (`now`; later than the set with write-behind), which is what other processes'
    /// coherence checks look for.
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
            namespaceID, write.key, write.value, write.value.count + write.key.utf8.count, write.writtenAt,
            write.attributes.expiresAt, write.attributes.staleUntil, version, write.attributes.tagsJSON, now)
    }

    func deleteEntry(namespaceID: Int64, key: String) throws -> Bool {
        try run("DELETE FROM entries WHERE namespace_id = ?1 AND key = ?2", namespaceID, key) > 0
    }

    /// Deletes up to `limit` entries of the namespace; returns how many.
    func deleteEntries(namespaceID: Int64, limit: Int) throws -> Int {
        try run(
            "DELETE FROM entries WHERE id IN (SELECT id FROM entries WHERE namespace_id = ?1 LIMIT ?2)",
            namespaceID, limit)
    }

    /// Deletes up to `limit` entries written under another version; returns how many.
    func deleteEntries(namespaceID: Int64, notVersion version: String, limit: Int) throws -> Int {
        try run(
            "DELETE FROM entries WHERE id IN (SELECT id FROM entries WHERE namespace_id = ?1 AND version != ?2 LIMIT ?3)",
            namespaceID, version, limit)
    }

    /// Deletes up to `limit` entries past their stale window; returns how many.
    func deletePurgeable(namespaceID: Int64, now: Int64, limit: Int) throws -> Int {
        try run(
            """
            DELETE FROM entries WHERE id IN (
                SELECT id FROM entries WHERE namespace_id = ?1 AND expires_at <= ?2 AND stale_until <= ?2 LIMIT ?3)
            """,
            namespaceID, now, limit)
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

    /// The recorded row of namespace `name`, if any.
    func namespaceRow(name: String) throws -> (id: Int64, version: String, policyJSON: String)? {
        try withStatement("SELECT id, version, policy FROM namespaces WHERE name = ?1") { statement in
            statement.bind(name)
            return try statement.firstRow { ($0.int64(0), $0.text(1), $0.text(2)) }
        }
    }

    func namespaceIDs() throws -> [Int64] {
        try withStatement("SELECT id FROM namespaces ORDER BY id") { try $0.rows { $0.int64(0) } }
    }
}

/// The SQL that invalidation selectors run, in bounded batches.
extension SQLiteConnection {
    /// Deletes up to `limit` entries of the namespace whose key starts with `prefix` (a range
    /// on the unique key index: every UTF-8 continuation of `prefix` sorts below `prefix || x'FF'`).
    func deleteEntries(namespaceID: Int64, prefix: String, limit: Int) throws -> Int {
        try run(
            """
            DELETE FROM entries WHERE id IN (
                SELECT id FROM entries
                WHERE namespace_id = ?1 AND key >= ?2 AND key < (?2 || CAST(x'ff' AS TEXT)) LIMIT ?3)
            """,
            namespaceID, prefix, limit)
    }

    /// Deletes up to `limit` entries carrying `tag`, in one namespace or all.
    func deleteEntries(tag: String, namespaceID: Int64?, limit: Int) throws -> Int {
        try run(
            """
            DELETE FROM entries WHERE id IN (
                SELECT t.entry_id FROM entry_tags t JOIN entries e ON e.id = t.entry_id
                WHERE t.tag = ?1 AND (?2 IS NULL OR e.namespace_id = ?2) LIMIT ?3)
            """,
            tag, namespaceID, limit)
    }
}
