import Foundation

extension Inspector {
    /// How far back summaries' "last minute" reaches, in milliseconds (see
    /// ``activity(namespace:last:)``).
    public static let recentWindowMilliseconds: Int64 = 60_000

    /// The processes attached to the file, oldest first, with whether each is live. Reads
    /// the `clients` table only.
    public func processes() throws -> [AttachedProcess] {
        try store.clients().map(AttachedProcess.init)
    }

    /// What every process did from `start` until `end` (milliseconds since the epoch; buckets
    /// that start in `start..<end` count), in `namespace` or in all of them. Rates are over
    /// `end - start`. Reads the telemetry's time index only.
    public func activity(namespace: String? = nil, from start: Int64, until end: Int64) throws -> Activity {
        let rows = try store.database.read { connection in
            try connection.activityCounts(from: start, until: max(end, start), width: Int64.max, namespace: namespace)
        }
        return Activity(start: start, duration: end - start, statistics: rows.reduce(.zero) { $0 + $1.counts })
    }

    /// What every process did in the `duration` up to now, in `namespace` or in all of them:
    /// the buckets that started in it (the one in progress included), with rates over
    /// `duration`. Summaries use it for their last minute.
    public func activity(namespace: String? = nil, last duration: Duration) throws -> Activity {
        let now = store.now()
        let length = max(duration.milliseconds, 0)
        let rows = try store.database.read { connection in
            try connection.activityCounts(from: now - length, until: now + 1, width: Int64.max, namespace: namespace)
        }
        return Activity(start: now - length, duration: length, statistics: rows.reduce(.zero) { $0 + $1.counts })
    }

    /// Telemetry over `window`, one point per bucket of its resolution, for `namespace` or
    /// for every namespace together: hit rate, operations and evictions per second.
    ///
    /// The counters are summed by SQLite in one grouped read per stored resolution, so the
    /// cost follows the telemetry rows in the window (not the entries).
    public func activity(namespace: String? = nil, over window: TelemetryWindow) throws -> ActivitySeries {
        let now = store.now()
        let width = window.resolutionMilliseconds
        let span = window.span(endingAt: now)
        let rows = try store.database.read { connection in
            try connection.activityCounts(from: span.first, until: span.end, width: width, namespace: namespace)
        }
        var slots = [CacheStatistics](repeating: .zero, count: window.pointCount)
        for row in rows where slots.indices.contains(row.slot) { slots[row.slot] += row.counts }
        return ActivitySeries(namespace: namespace, window: window, now: now, slots: slots)
    }

    /// The last minute's counters per namespace, read on `connection`.
    static func recentCounts(now: Int64, on connection: SQLiteConnection) throws -> [String: CacheStatistics] {
        let rows = try connection.activityCounts(
            from: now - recentWindowMilliseconds, until: now + 1, width: Int64.max, namespace: nil)
        return rows.reduce(into: [:]) { result, row in result[row.namespace, default: .zero] += row.counts }
    }

    /// `counts` as the last minute's ``Activity`` at `now`.
    static func recentActivity(_ counts: CacheStatistics, now: Int64) -> Activity {
        Activity(start: now - recentWindowMilliseconds, duration: recentWindowMilliseconds, statistics: counts)
    }
}
