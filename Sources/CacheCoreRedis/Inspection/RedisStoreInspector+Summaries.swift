import CacheCore
import Foundation

/// What `cachedeck namespaces` and `stats` print for a RedisStore, in the shapes of a file's
/// `Inspector`.
extension RedisStoreInspector {
    /// Every namespace, by name, as `Inspector/namespaces()` summarizes a file's: exact
    /// counts from a census run to completion (bounded `SCAN` batches), and as
    /// `NamespaceSummary/lastMinute` the activity of `activity(namespace:)` (every
    /// client's counters since it opened). `createdAt` is the namespace's last update; the least and most
    /// recently used times are absent (Redis records no reads per entry).
    public func namespaceSummaries() throws -> [NamespaceSummary] {
        let census = census()
        try census.finish()
        let now = Self.now()
        let activities = try activities(now: now)
        return census.namespaces(now: now).map { count in
            let namespace = count.namespace
            return NamespaceSummary(
                name: namespace.name, entryCount: count.entries, expiredEntryCount: count.expiredEntries,
                liveEntryCount: count.entries - count.expiredEntries, bytes: count.bytes, version: namespace.version,
                generation: Int(namespace.generation), policy: namespace.policy, policyJSON: namespace.policyJSON,
                createdAt: namespace.updatedAt ?? 0, updatedAt: namespace.updatedAt ?? 0, leastRecentlyUsedAt: nil,
                mostRecentlyUsedAt: nil,
                lastMinute: activities.of(namespace.name))
        }
    }

    /// Every client's counters since it opened (`sharedStatistics()`), for `namespace` or
    /// every namespace together, as the span from the earliest client's start until now.
    public func activity(namespace: String?) throws -> Activity {
        try activities(now: Self.now()).of(namespace)
    }

    /// Every host's telemetry over `window`, one point per bucket of its resolution, for
    /// `namespace` or for every namespace together, in the shape of a file's
    /// `Inspector/activity(namespace:over:)`: summed from the per-minute hashes every
    /// ``RedisStore`` writes (docs/REDIS.md), with one `HMGET` per minute of the window in one
    /// pipeline. A minute counts in the point its start falls in, so points finer than a
    /// minute see each minute's counts at its start; the minutes kept are those of the
    /// writers' `TelemetryRetention` (a day by default).
    public func activity(namespace: String? = nil, over window: TelemetryWindow) throws -> ActivitySeries {
        try activity(namespace: namespace, over: window, now: Self.now())
    }

    /// `activity(namespace:over:)` for the window ending at `now` (ms since the epoch).
    func activity(namespace: String?, over window: TelemetryWindow, now: Int64) throws -> ActivitySeries {
        let span = window.span(endingAt: now)
        let width = window.resolutionMilliseconds
        let minutes = try read { connection in
            try RedisTelemetryReader.minutes(
                keys: keys, namespace: namespace, from: span.first, until: span.end, on: connection)
        }
        var slots = [CacheStatistics](repeating: .zero, count: window.pointCount)
        for (minute, counts) in minutes {
            let slot = Int((minute - span.first) / width)
            if slots.indices.contains(slot) { slots[slot] += counts }
        }
        return ActivitySeries(namespace: namespace, window: window, now: now, slots: slots)
    }

    /// The shared counters and the span they cover.
    private func activities(now: Int64) throws -> SharedActivity {
        let started = try clients().map { Int64(($0.startedAt.timeIntervalSince1970 * 1000).rounded(.down)) }
        return SharedActivity(statistics: try sharedStatistics(), start: min(started.min() ?? now, now), now: now)
    }
}

/// Every client's counters since it opened, and the span they cover.
private struct SharedActivity {
    let statistics: StoreStatistics
    let start: Int64
    let now: Int64

    /// The activity of `namespace` (`nil`: every namespace together).
    func of(_ namespace: String?) -> Activity {
        Activity(
            start: start, duration: now - start,
            statistics: namespace.map { statistics[$0] } ?? statistics.overall)
    }
}
