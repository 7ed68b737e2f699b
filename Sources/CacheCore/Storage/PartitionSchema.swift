extension Schema {
    /// Format v4: partitions. An entry belongs to the namespace whose id it carries; a live
    /// namespace's row is in `namespaces`, and rows taken out of sight without being deleted
    /// belong to a partition — a row of `partitions` with an id from the same sequence.
    ///
    /// - A clear moves the namespace's row (its id and counters) into `partitions` and gives
    ///   the name a fresh row: one transaction of three small statements, whatever the size of
    ///   the namespace. Its undo moves the row back. (`whole` = 1.)
    /// - A selective action (prefix, tag, keys) moves each chosen entry into a partition of its
    ///   own by rewriting `namespace_id` in place: the value is not copied and the row keeps its
    ///   id, so a restored entry keeps its place in "oldest first" order. (`whole` = 0.)
    /// - A version change retires the namespace's row the same way with no `audit_id`; the
    ///   maintenance service deletes retired partitions in bounded batches.
    ///
    /// A partition's counters are exact: they are the audit log's figures, even for an action
    /// that was killed half-way. Trash partitions are deleted with the action's retention.
    /// This replaces format 3's `trash` table, which copied every removed value. An expiry
    /// action removes nothing: `expiry_trash` keeps the times it replaced, for its undo.
    ///
    /// Deletions adjust the counters once per batch (see ``SQLiteConnection/deleteDoomed()``)
    /// instead of through a trigger per row.
    ///
    /// The expiry index also holds each entry's size, so the bytes of any expiry range (the
    /// timeline's buckets and hours) are summed from the index alone, exactly.
    static let partitions = """
        DROP TRIGGER entries_count_delete;
        DROP INDEX entries_by_expiry;
        CREATE INDEX entries_by_expiry ON entries (namespace_id, expires_at, stale_until, size);

        CREATE TABLE partitions (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            audit_id INTEGER,
            whole INTEGER NOT NULL,
            entry_count INTEGER NOT NULL DEFAULT 0,
            total_bytes INTEGER NOT NULL DEFAULT 0,
            version TEXT NOT NULL DEFAULT '',
            policy TEXT NOT NULL DEFAULT '{}',
            generation INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            retired_at INTEGER NOT NULL
        );
        CREATE INDEX partitions_by_audit ON partitions (audit_id);

        CREATE TABLE expiry_trash (
            audit_id INTEGER NOT NULL,
            entry_id INTEGER NOT NULL,
            expires_at INTEGER,
            stale_until INTEGER,
            PRIMARY KEY (audit_id, entry_id)
        ) WITHOUT ROWID;

        ALTER TABLE audit ADD COLUMN finished_at INTEGER;
        UPDATE audit SET finished_at = at;

        INSERT INTO partitions (id, name, audit_id, whole, created_at, updated_at, retired_at)
        SELECT (SELECT coalesce(max(id), 0) FROM namespaces) + row_number() OVER (ORDER BY t.audit_id, t.namespace_id),
               coalesce(n.name, ''), t.audit_id, 0, a.at, a.at, a.at
        FROM (SELECT DISTINCT audit_id, namespace_id FROM trash) t
        JOIN audit a ON a.id = t.audit_id LEFT JOIN namespaces n ON n.id = t.namespace_id;

        INSERT INTO entries (namespace_id, key, value, size, created_at, expires_at, stale_until, accessed_at,
                             hits, version, tags)
        SELECT p.id, t.key, t.value, t.size, t.created_at, t.expires_at, t.stale_until, t.accessed_at, t.hits,
               t.version, t.tags
        FROM trash t
        JOIN partitions p ON p.audit_id = t.audit_id
            AND p.name = coalesce((SELECT name FROM namespaces WHERE id = t.namespace_id), '')
        WHERE true
        ON CONFLICT (namespace_id, key) DO NOTHING;

        UPDATE partitions SET
            entry_count = (SELECT count(*) FROM entries WHERE namespace_id = partitions.id),
            total_bytes = (SELECT coalesce(sum(size), 0) FROM entries WHERE namespace_id = partitions.id);

        DROP TABLE trash;
        """
}
