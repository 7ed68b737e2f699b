/// The SQL of the `clients` and `stats` tables (see ``Schema/telemetryTables``).
extension SQLiteConnection {
    /// One `stats` row as read back.
    struct StatsRow {
        let resolution: Int64
        let bucket: Int64
        let namespace: String
        let clientID: Int64
        let counts: CacheStatistics
    }

    /// One `clients` row.
    struct ClientRow {
        let id: Int64
        let pid: Int32
        let host: String
        let program: String
        let startedAt: Int64
        let lastSeen: Int64
        let heartbeatInterval: Int64
        let stoppedAt: Int64?
    }

    func namespaceName(id: Int64) throws -> String? {
        try withStatement("SELECT name FROM namespaces WHERE id = ?1") { statement in
            statement.bind(id)
            return try statement.firstRow { $0.text(0) }
        }
    }

    // MARK: Clients

    /// Adds a client row and returns its id.
    func insertClient(
        pid: Int32, host: String, program: String, startedAt: Int64, now: Int64, heartbeatInterval: Int64
    ) throws -> Int64 {
        try run(
            """
            INSERT INTO clients (pid, host, program, started_at, last_seen, heartbeat_interval)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            """,
            Int(pid), host, program, startedAt, now, heartbeatInterval)
        return lastInsertedRowID
    }

    /// Moves the client's `last_seen` to `now` (and sets `stopped_at` when `stopping`);
    /// `false` when the row is gone (maintenance removed it as stale).
    func heartbeat(clientID: Int64, now: Int64, stopping: Bool) throws -> Bool {
        try run(
            "UPDATE clients SET last_seen = ?2, stopped_at = CASE WHEN ?3 THEN ?2 END WHERE id = ?1",
            clientID, now, stopping ? 1 : 0) > 0
    }

    func clientRows() throws -> [ClientRow] {
        try withStatement(
            """
            SELECT id, pid, host, program, started_at, last_seen, heartbeat_interval, stopped_at
            FROM clients ORDER BY id
            """
        ) { statement in
            try statement.rows { row in
                ClientRow(
                    id: row.int64(0), pid: Int32(truncatingIfNeeded: row.int64(1)), host: row.text(2),
                    program: row.text(3), startedAt: row.int64(4), lastSeen: row.int64(5),
                    heartbeatInterval: row.int64(6), stoppedAt: row.optionalInt64(7))
            }
        }
    }

    /// Deletes clients last seen before `cutoff`; returns how many.
    func deleteClients(lastSeenBefore cutoff: Int64) throws -> Int {
        try run("DELETE FROM clients WHERE last_seen < ?1", cutoff)
    }

    // MARK: Stats

    /// The counter columns of `stats`, in ``CacheStatistics``' order.
    private static let statsCounters = [
        "memory_hits", "disk_hits", "misses", "stale_hits", "sets", "removes", "evictions", "evicted_bytes",
        "expirations", "invalidations", "load_successes", "load_failures", "load_time",
    ]

    /// The two statements that add counters into `stats` buckets (a client's report, a
    /// roll-up), assembled once from ``statsCounters`` so the upsert is written once; no value
    /// is interpolated.
    private static let (addStatsSQL, rollUpStatsSQL): (String, String) = {
        let insert =
            "INSERT INTO stats (resolution, bucket, namespace, client_id, "
            + statsCounters.joined(separator: ", ") + ")"
        let addToBucket =
            " ON CONFLICT (resolution, bucket, namespace, client_id) DO UPDATE SET "
            + statsCounters.map { "\($0) = \($0) + excluded.\($0)" }.joined(separator: ", ")
        let values = (1...(4 + statsCounters.count)).map { "?\($0)" }.joined(separator: ", ")
        let sums = statsCounters.map { "sum(\($0))" }.joined(separator: ", ")
        return (
            insert + " VALUES (" + values + ")" + addToBucket,
            insert + " SELECT ?2, bucket - bucket % ?2, namespace, client_id, " + sums
                + " FROM stats WHERE resolution = ?1 AND bucket < ?3 GROUP BY bucket - bucket % ?2, namespace, client_id"
                + addToBucket
        )
    }()

    /// Adds `counts` to the client's bucket of `namespace`.
    func addStats(
        _ counts: CacheStatistics, resolution: Int64, bucket: Int64, namespace: String, clientID: Int64
    ) throws {
        try withDynamicStatement(Self.addStatsSQL) { statement in
            statement.bind(
                resolution, bucket, namespace, clientID, counts.memoryHits, counts.diskHits, counts.misses,
                counts.staleHits, counts.sets, counts.removes, counts.evictions, counts.evictedBytes,
                counts.expirations, counts.invalidations, counts.loadSuccesses, counts.loadFailures,
                counts.totalLoadTime.nanosecondCount)
            _ = try statement.run()
        }
    }

    /// Rows of `resolution` whose bucket ends after `since`, oldest first.
    func statsRows(resolution: Int64, since: Int64) throws -> [StatsRow] {
        try withStatement(
            """
            SELECT bucket, namespace, client_id, memory_hits, disk_hits, misses, stale_hits, sets, removes,
                evictions, evicted_bytes, expirations, invalidations, load_successes, load_failures, load_time
            FROM stats WHERE resolution = ?1 AND bucket > ?2 - ?1 ORDER BY bucket
            """
        ) { statement in
            statement.bind(resolution, since)
            return try statement.rows { row in
                StatsRow(
                    resolution: resolution, bucket: row.int64(0), namespace: row.text(1), clientID: row.int64(2),
                    counts: CacheStatistics(
                        memoryHits: row.int(3), diskHits: row.int(4), misses: row.int(5), staleHits: row.int(6),
                        sets: row.int(7), removes: row.int(8), evictions: row.int(9), evictedBytes: row.int(10),
                        expirations: row.int(11), invalidations: row.int(12), loadSuccesses: row.int(13),
                        loadFailures: row.int(14), totalLoadTime: .nanoseconds(row.int64(15))))
            }
        }
    }

    /// The smallest resolution above `resolution` that has rows (an index seek each, so
    /// listing the few resolutions present never scans the table).
    func nextStatsResolution(after resolution: Int64) throws -> Int64? {
        try scalar("SELECT min(resolution) FROM stats WHERE resolution > ?1", resolution)
    }

    /// The oldest bucket of `resolution`.
    func oldestStatsBucket(resolution: Int64) throws -> Int64? {
        try scalar("SELECT min(bucket) FROM stats WHERE resolution = ?1", resolution)
    }

    /// Adds the rows of resolution `fine` with buckets before `cutoff` into buckets of
    /// resolution `coarse` (summing, so totals stay), then deletes them; returns how many
    /// fine rows it rolled up.
    func rollUpStats(from fine: Int64, to coarse: Int64, before cutoff: Int64) throws -> Int {
        try withDynamicStatement(Self.rollUpStatsSQL) { statement in
            statement.bind(fine, coarse, cutoff)
            _ = try statement.run()
        }
        return try deleteStats(resolution: fine, before: cutoff)
    }

    /// Deletes the rows of `resolution` with buckets before `cutoff`; returns how many.
    func deleteStats(resolution: Int64, before cutoff: Int64) throws -> Int {
        try run("DELETE FROM stats WHERE resolution = ?1 AND bucket < ?2", resolution, cutoff)
    }
}
