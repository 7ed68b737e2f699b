import CacheCore
import Foundation

/// What `cachedeck namespaces` and `stats` print for a RedisStore, in the shapes of a file's
/// `Inspector`.
extension RedisStoreInspector {
    /// Every namespace, by name, as `Inspector/namespaces()` summarizes a file's: exact
    /// counts from a census run to completion (bounded `SCAN` batches), and as
    /// `NamespaceSummary/lastMinute` every host's counts of `activity(namespace:last:)` over
    /// the last minute. `createdAt` is the namespace's last update; the least and most
    /// recently used times are absent (Redis records no reads per entry).
    public func namespaceSummaries() throws -> [NamespaceSummary] {
        let census = census()
        try census.finish()
        let now = Self.now()
        return try census.namespaces(now: now).map { count in
            let namespace = count.namespace
            return NamespaceSummary(
                name: namespace.name, entryCount: count.entries, expiredEntryCount: count.expiredEntries,
                liveEntryCount: count.entries - count.expiredEntries, bytes: count.bytes, version: namespace.version,
                generation: Int(namespace.generation), policy: namespace.policy, policyJSON: namespace.policyJSON,
                createdAt: namespace.updatedAt ?? 0, updatedAt: namespace.updatedAt ?? 0,
                lastMinute: try activity(namespace: namespace.name, last: .seconds(60), now: now))
        }
    }

    /// Every host's counts over the last `duration` at least, for `namespace` or every
    /// namespace together: the per-minute hashes every ``RedisStore`` writes, from the minute
    /// holding `now - duration` to the current one, as one span starting at that minute.
    public func activity(namespace: String?, last duration: Duration) throws -> Activity {
        try activity(namespace: namespace, last: duration, now: Self.now())
    }

    /// `activity(namespace:last:)` until `now` (ms since the epoch).
    func activity(namespace: String?, last duration: Duration, now: Int64) throws -> Activity {
        let width = RedisTelemetry.minute
        let from = now.subtractingClamped(duration.milliseconds)
        let start = from - ((from % width) + width) % width
        let minutes = try read { connection in
            try RedisTelemetryReader.minutes(keys: keys, namespace: namespace, from: start, until: now + 1, on: connection)
        }
        let counted = minutes.reduce(into: CacheStatistics.zero) { $0 += $1.counts }
        return Activity(start: start, duration: now - start, statistics: counted)
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
}
