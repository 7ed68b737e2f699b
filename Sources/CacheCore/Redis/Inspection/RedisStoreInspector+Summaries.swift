import Foundation

/// What `cachedeck namespaces` and `stats` print for a RedisStore, in the shapes of a file's
/// ``Inspector``.
extension RedisStoreInspector {
    /// Every namespace, by name, as ``Inspector/namespaces()`` summarizes a file's: exact
    /// counts from a census run to completion (bounded `SCAN` batches), and as
    /// ``NamespaceSummary/lastMinute`` the activity of ``activity(namespace:)`` (Redis keeps
    /// no per-minute telemetry). `createdAt` is the namespace's last update; the least and most
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

    /// Every client's counters since it opened (``sharedStatistics()``), for `namespace` or
    /// every namespace together, as the span from the earliest client's start until now.
    public func activity(namespace: String?) throws -> Activity {
        try activities(now: Self.now()).of(namespace)
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
