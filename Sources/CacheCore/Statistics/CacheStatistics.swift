/// Counts of what a cache did — for one namespace, all of them together, or one telemetry
/// bucket — with the rates derived from them.
///
/// Subtract an earlier value from a later one to get the change over the interval between
/// them: `let lastMinute = store.statistics() - aMinuteAgo`.
public struct CacheStatistics: Sendable, Hashable, Codable {
    /// Reads served from the in-memory tier.
    public var memoryHits: Int
    /// Reads served from the file.
    public var diskHits: Int
    /// Reads that found no live value (absent, expired, of another version, too old, or no
    /// longer decodable).
    public var misses: Int
    /// Reads that were served an expired value because the caller asked for stale data.
    public var staleHits: Int
    /// Values written.
    public var sets: Int
    /// Entries removed by the app.
    public var removes: Int
    /// Live entries removed to bring a namespace or the store within its size limits.
    public var evictions: Int
    /// The keys' and values' bytes of the evicted entries.
    public var evictedBytes: Int
    /// Expired entries removed (by sweeps and by eviction, which removes expired entries first).
    public var expirations: Int
    /// Entries dropped by invalidation (by key, tag or dependency).
    public var invalidations: Int
    /// Loader calls that produced a value.
    public var loadSuccesses: Int
    /// Loader calls that failed.
    public var loadFailures: Int
    /// Time spent in loader calls, successful or not.
    public var totalLoadTime: Duration

    /// Creates statistics from counts; every count defaults to zero.
    public init(
        memoryHits: Int = 0, diskHits: Int = 0, misses: Int = 0, staleHits: Int = 0, sets: Int = 0, removes: Int = 0,
        evictions: Int = 0, evictedBytes: Int = 0, expirations: Int = 0, invalidations: Int = 0,
        loadSuccesses: Int = 0, loadFailures: Int = 0, totalLoadTime: Duration = .zero
    ) {
        self.memoryHits = memoryHits
        self.diskHits = diskHits
        self.misses = misses
        self.staleHits = staleHits
        self.sets = sets
        self.removes = removes
        self.evictions = evictions
        self.evictedBytes = evictedBytes
        self.expirations = expirations
        self.invalidations = invalidations
        self.loadSuccesses = loadSuccesses
        self.loadFailures = loadFailures
        self.totalLoadTime = totalLoadTime
    }

    /// Nothing counted.
    public static let zero = CacheStatistics()

    /// Reads served a live value, from memory or from the file.
    public var hits: Int { memoryHits.addingClamped(diskHits) }

    /// Every read: hits, stale hits and misses.
    public var requests: Int { hits.addingClamped(staleHits).addingClamped(misses) }

    /// Loader calls, successful or not.
    public var loads: Int { loadSuccesses.addingClamped(loadFailures) }

    /// The share of requests served a live value (0 when there were none).
    public var hitRate: Double { requests > 0 ? Double(hits) / Double(requests) : 0 }

    /// The share of requests not served a live value — misses and stale hits (0 when there
    /// were none). With any requests, `hitRate + missRate == 1`.
    public var missRate: Double { requests > 0 ? Double(misses.addingClamped(staleHits)) / Double(requests) : 0 }

    /// The mean time a loader call took (zero when there were none).
    public var averageLoadPenalty: Duration { loads > 0 ? totalLoadTime / loads : .zero }

    /// A verdict on the hit rate; ``CacheHealth/unknown`` below ``CacheHealth/minimumRequests``.
    public var health: CacheHealth { CacheHealth(hitRate: hitRate, requests: requests) }

    /// Whether nothing at all was counted.
    public var isZero: Bool { self == .zero }

    /// The counts of `lhs` minus those of `rhs`: the change from an earlier snapshot. Counts
    /// saturate at the bounds of `Int` (telemetry read from a file may hold any number).
    public static func - (lhs: CacheStatistics, rhs: CacheStatistics) -> CacheStatistics {
        lhs.combined(with: rhs, { $0.subtractingClamped($1) }, -)
    }

    /// The counts of both added together, saturating at the bounds of `Int`.
    public static func + (lhs: CacheStatistics, rhs: CacheStatistics) -> CacheStatistics {
        lhs.combined(with: rhs, { $0.addingClamped($1) }, +)
    }

    /// Adds `other`'s counts to these.
    public static func += (lhs: inout CacheStatistics, rhs: CacheStatistics) {
        lhs = lhs + rhs
    }

    private func combined(
        with other: CacheStatistics, _ count: (Int, Int) -> Int, _ time: (Duration, Duration) -> Duration
    ) -> CacheStatistics {
        CacheStatistics(
            memoryHits: count(memoryHits, other.memoryHits), diskHits: count(diskHits, other.diskHits),
            misses: count(misses, other.misses), staleHits: count(staleHits, other.staleHits),
            sets: count(sets, other.sets), removes: count(removes, other.removes),
            evictions: count(evictions, other.evictions), evictedBytes: count(evictedBytes, other.evictedBytes),
            expirations: count(expirations, other.expirations),
            invalidations: count(invalidations, other.invalidations),
            loadSuccesses: count(loadSuccesses, other.loadSuccesses),
            loadFailures: count(loadFailures, other.loadFailures),
            totalLoadTime: time(totalLoadTime, other.totalLoadTime))
    }
}

/// How well a namespace's cache is working, judged by its hit rate.
public enum CacheHealth: String, Sendable, Hashable, Codable, CaseIterable {
    /// Hit rate of at least 0.8.
    case excellent
    /// Hit rate of at least 0.6.
    case good
    /// Hit rate of at least 0.4.
    case fair
    /// Hit rate below 0.4.
    case poor
    /// Too few requests (below ``minimumRequests``) to judge.
    case unknown

    /// Requests needed before a hit rate is judged.
    public static let minimumRequests = 10

    /// The verdict for `hitRate` over `requests` requests.
    public init(hitRate: Double, requests: Int) {
        switch hitRate {
        case _ where requests < Self.minimumRequests: self = .unknown
        case 0.8...: self = .excellent
        case 0.6..<0.8: self = .good
        case 0.4..<0.6: self = .fair
        default: self = .poor
        }
    }
}
