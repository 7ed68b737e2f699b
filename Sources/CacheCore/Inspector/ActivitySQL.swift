/// The telemetry reads behind ``Inspector``'s activity: the `stats` counters summed in SQLite,
/// per slot of a fixed width and per namespace, so a day of per-second rows never crosses
/// into Swift one by one.
extension SQLiteConnection {
    /// Counters of the buckets that start in `start..<end` (of every resolution), summed per
    /// slot of `width` ms from `start` and per namespace; only `namespace`'s when given.
    func activityCounts(from start: Int64, until end: Int64, width: Int64, namespace: String?) throws
        -> [(slot: Int, namespace: String, counts: CacheStatistics)]
    {
        var result: [(slot: Int, namespace: String, counts: CacheStatistics)] = []
        var resolution = try nextStatsResolution(after: 0)
        while let current = resolution {
            result += try withStatement(
                """
                SELECT (bucket - ?2) / ?4, namespace, sum(memory_hits), sum(disk_hits), sum(misses), sum(stale_hits),
                    sum(sets), sum(removes), sum(evictions), sum(evicted_bytes), sum(expirations), sum(invalidations),
                    sum(load_successes), sum(load_failures), sum(load_time)
                FROM stats WHERE resolution = ?1 AND bucket >= ?2 AND bucket < ?3 AND (?5 IS NULL OR namespace = ?5)
                GROUP BY 1, 2
                """
            ) { statement in
                statement.bind(current, start, end, max(width, 1), namespace)
                return try statement.rows { row in
                    (
                        slot: row.int(0), namespace: row.text(1),
                        counts: CacheStatistics(
                            memoryHits: row.int(2), diskHits: row.int(3), misses: row.int(4), staleHits: row.int(5),
                            sets: row.int(6), removes: row.int(7), evictions: row.int(8), evictedBytes: row.int(9),
                            expirations: row.int(10), invalidations: row.int(11), loadSuccesses: row.int(12),
                            loadFailures: row.int(13), totalLoadTime: .nanoseconds(row.int64(14)))
                    )
                }
            }
            resolution = try nextStatsResolution(after: current)
        }
        return result
    }
}
