extension Schema {
    /// The audit log of admin actions and the trash that keeps what they removed.
    ///
    /// `audit.target` is the ``AdminTarget`` as JSON (NULL for a restore, which names the
    /// action it undid in `restores`). `trash` holds removed rows, with their original
    /// namespace, times and counters, until a restore or the retention purge.
    static let adminTables = """
        CREATE TABLE audit (
            id INTEGER PRIMARY KEY,
            at INTEGER NOT NULL,
            user TEXT NOT NULL,
            host TEXT NOT NULL,
            pid INTEGER NOT NULL,
            program TEXT NOT NULL,
            target TEXT,
            restores INTEGER,
            entries INTEGER NOT NULL DEFAULT 0,
            bytes INTEGER NOT NULL DEFAULT 0,
            undone_at INTEGER
        );

        CREATE TABLE trash (
            audit_id INTEGER NOT NULL,
            entry_id INTEGER NOT NULL,
            namespace_id INTEGER NOT NULL,
            key TEXT NOT NULL,
            value BLOB NOT NULL,
            size INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            expires_at INTEGER,
            stale_until INTEGER,
            accessed_at INTEGER NOT NULL,
            hits INTEGER NOT NULL,
            version TEXT NOT NULL,
            tags TEXT,
            PRIMARY KEY (audit_id, entry_id)
        ) WITHOUT ROWID;
        """
}
