/// What the processes attached to a cache file did during one span of time — in every
/// namespace or in one — summed from the telemetry they write into the file.
///
/// Times are milliseconds since the Unix epoch. A telemetry bucket counts in the span its
/// start falls in.
public struct Activity: Sendable, Hashable, Codable {
    /// When the span starts.
    public var start: Int64
    /// How long the span is, in milliseconds: what the rates divide by.
    public var durationMilliseconds: Int64
    /// Reads served a live value (from memory or from the file).
    public var hits: Int
    /// Reads that found no live value.
    public var misses: Int
    /// Reads served an expired value because the caller asked for stale data.
    public var staleHits: Int
    /// Every read: hits, stale hits and misses.
    public var requests: Int
    /// Values written.
    public var sets: Int
    /// Entries removed by apps.
    public var removes: Int
    /// Live entries evicted by size limits.
    public var evictions: Int
    /// Expired entries removed.
    public var expirations: Int
    /// Entries dropped by invalidation.
    public var invalidations: Int
    /// Loader calls that produced a value.
    public var loadSuccesses: Int
    /// Loader calls that failed.
    public var loadFailures: Int
    /// The share of requests served a live value, or `nil` when there were none.
    public var hitRate: Double?
    /// The verdict on ``hitRate`` (``CacheHealth/unknown`` with fewer than
    /// ``CacheHealth/minimumRequests`` requests).
    public var health: CacheHealth
    /// Reads, sets and removes per second over the span.
    public var operationsPerSecond: Double
    /// Evictions per second over the span.
    public var evictionsPerSecond: Double

    /// The span from `start` lasting `duration` ms, with the counts of `statistics`.
    package init(start: Int64, duration: Int64, statistics: CacheStatistics) {
        self.start = start
        durationMilliseconds = max(duration, 0)
        hits = statistics.hits
        misses = statistics.misses
        staleHits = statistics.staleHits
        requests = statistics.requests
        sets = statistics.sets
        removes = statistics.removes
        evictions = statistics.evictions
        expirations = statistics.expirations
        invalidations = statistics.invalidations
        loadSuccesses = statistics.loadSuccesses
        loadFailures = statistics.loadFailures
        hitRate = statistics.requests > 0 ? statistics.hitRate : nil
        health = statistics.health
        operationsPerSecond = Self.rate(
            [statistics.requests, statistics.sets, statistics.removes].clampedSum(), over: durationMilliseconds)
        evictionsPerSecond = Self.rate(statistics.evictions, over: durationMilliseconds)
    }

    /// When the span ends (exclusive).
    public var end: Int64 { start.addingClamped(durationMilliseconds) }

    /// `count` per second over the span (0 for an empty span).
    public func perSecond(_ count: Int) -> Double { Self.rate(count, over: durationMilliseconds) }

    private static func rate(_ count: Int, over milliseconds: Int64) -> Double {
        milliseconds > 0 ? Double(count) * 1000 / Double(milliseconds) : 0
    }
}
