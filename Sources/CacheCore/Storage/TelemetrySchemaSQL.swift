extension Schema {
    /// Telemetry: the processes attached to the file and their counters in time buckets.
    ///
    /// `clients` has one row per attached store (process), with a heartbeat every telemetry
    /// interval; `heartbeat_interval` (ms) lets a reader judge whether `last_seen` is recent
    /// enough to call it live, and `stopped_at` is set by a clean close. Ids are never reused
    /// (`AUTOINCREMENT`), so a new process is never mistaken for a removed one in `stats`.
    ///
    /// `stats` holds the counters each client flushed, per namespace (by name, so rows stay
    /// readable whatever happens to the namespace) and per client, in buckets of
    /// `resolution` ms starting at `bucket` (ms since the epoch). Maintenance rolls fine
    /// buckets into coarser ones as they age (sums, so totals are kept) and drops the
    /// coarsest past their retention. The primary key serves every read: a time range at
    /// one resolution, and the oldest bucket of a resolution.
    static let telemetryTables = """
        CREATE TABLE clients (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            program TEXT NOT NULL,
            started_at INTEGER NOT NULL,
            last_seen INTEGER NOT NULL,
            heartbeat_interval INTEGER NOT NULL,
            stopped_at INTEGER
        );

        CREATE TABLE stats (
            resolution INTEGER NOT NULL,
            bucket INTEGER NOT NULL,
            namespace TEXT NOT NULL,
            client_id INTEGER NOT NULL,
            memory_hits INTEGER NOT NULL DEFAULT 0,
            disk_hits INTEGER NOT NULL DEFAULT 0,
            misses INTEGER NOT NULL DEFAULT 0,
            stale_hits INTEGER NOT NULL DEFAULT 0,
            sets INTEGER NOT NULL DEFAULT 0,
            removes INTEGER NOT NULL DEFAULT 0,
            evictions INTEGER NOT NULL DEFAULT 0,
            evicted_bytes INTEGER NOT NULL DEFAULT 0,
            expirations INTEGER NOT NULL DEFAULT 0,
            invalidations INTEGER NOT NULL DEFAULT 0,
            load_successes INTEGER NOT NULL DEFAULT 0,
            load_failures INTEGER NOT NULL DEFAULT 0,
            load_time INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (resolution, bucket, namespace, client_id)
        ) WITHOUT ROWID;
        """
}
