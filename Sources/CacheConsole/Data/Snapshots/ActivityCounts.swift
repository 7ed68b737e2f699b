import CacheCore

/// What apps did in a namespace (or in all of them) over a span: the figures beside a hit rate
/// that say why it is what it is. Counts are exact sums of the telemetry; a figure the
/// telemetry cannot tell is `nil` (drawn "–"), never 0.
package struct ActivityCounts: Sendable, Hashable {
    /// Every read: hits, stale hits and misses.
    package var requests: Int
    /// Reads that found no live value.
    package var misses: Int
    /// Live entries evicted by size limits.
    package var evictions: Int
    /// Expired entries removed.
    package var expirations: Int
    /// Loader calls that failed; `nil` when no loader call was recorded at all (a store
    /// without a loader), so that "no loader" does not read as "no failures".
    package var loadFailures: Int?
    /// Reads, sets and removes per second over the span.
    package var operationsPerSecond: Double

    /// Counts with these values.
    package init(
        requests: Int, misses: Int, evictions: Int, expirations: Int, loadFailures: Int?, operationsPerSecond: Double
    ) {
        self.requests = requests
        self.misses = misses
        self.evictions = evictions
        self.expirations = expirations
        self.loadFailures = loadFailures
        self.operationsPerSecond = operationsPerSecond
    }

    /// The counts of `activity`.
    package init(_ activity: Activity) {
        self.init(
            requests: activity.requests, misses: activity.misses, evictions: activity.evictions,
            expirations: activity.expirations,
            loadFailures: activity.loadSuccesses.addingClamped(activity.loadFailures) > 0 ? activity.loadFailures : nil,
            operationsPerSecond: activity.operationsPerSecond)
    }
}
