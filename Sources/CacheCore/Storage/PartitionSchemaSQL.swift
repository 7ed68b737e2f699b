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
    /// This step changes only the schema: format 3's trash is renamed `v3_trash` (with
    /// `v3_trash_names`, the names its namespace ids had), and ``Format3Trash`` moves its rows
    /// into partitions in bounded batches afterwards (or drops it at once when it is empty).
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

        ALTER TABLE trash RENAME TO v3_trash;
        CREATE TABLE v3_trash_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        INSERT INTO v3_trash_names (id, name) SELECT id, name FROM namespaces;
        """
}
