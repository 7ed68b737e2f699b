import TerminalUI
import CacheCore

/// Samples of counters that only grow (every host's counters on a Redis server, summed per
/// namespace), kept so rates and hit rates over recent windows can be read as differences:
/// every sample of the last five minutes, one a minute before that, none older than a day.
/// A window the console was not running for has no points (not-a-number), never zeros.
struct CounterHistory: Sendable {
    private var samples: [(at: Int64, totals: [String: CacheStatistics])] = []

    private static let fine: Int64 = 300_000
    private static let minute: Int64 = 60_000
    private static let day: Int64 = 86_400_000

    /// Records the totals at `at` (ms), thinning older samples.
    mutating func record(_ totals: [String: CacheStatistics], at: Int64) {
        if let last = samples.last, at <= last.at { return }
        samples.append((at, totals))
        var kept: [(at: Int64, totals: [String: CacheStatistics])] = []
        for sample in samples where at - sample.at <= Self.day {
            if at - sample.at > Self.fine, let previous = kept.last,
                sample.at / Self.minute == previous.at / Self.minute
            {
                continue
            }
            kept.append(sample)
        }
        samples = kept
    }

    /// What was counted in `namespace` (every namespace when `nil`) from the last sample at
    /// or before `from` (no older than `from - reach`; else the first one after it) to the last
    /// one at or before `until`, and over how many milliseconds; `nil` without two such
    /// samples. A counter that went down (a host's counters expired) counts 0.
    func delta(_ namespace: String?, from: Int64, until: Int64, reach: Int64 = 0) -> (
        counted: CacheStatistics, milliseconds: Int64
    )? {
        guard
            let first = samples.last(where: { $0.at <= from && $0.at >= from - reach })
                ?? samples.first(where: { $0.at >= from && $0.at <= until }),
            let last = samples.last(where: { $0.at <= until }), last.at > first.at
        else { return nil }
        func total(_ totals: [String: CacheStatistics]) -> CacheStatistics {
            namespace.map { totals[$0] ?? .zero } ?? totals.values.reduce(.zero, +)
        }
        let (old, new) = (total(first.totals), total(last.totals))
        return (Self.growth(from: old, to: new), last.at - first.at)
    }

    /// ``delta(_:from:until:reach:)`` as the ``Activity`` of the span it covers, ending at `until`.
    func activity(_ namespace: String?, from: Int64, until: Int64, reach: Int64 = 0) -> Activity? {
        delta(namespace, from: from, until: until, reach: reach).map {
            Activity(start: until - $0.milliseconds, duration: $0.milliseconds, statistics: $0.counted)
        }
    }

    /// Hit rate, operations and evictions per second in `points` buckets of `resolution` ms
    /// ending at `now`, oldest first.
    func series(_ namespace: String?, now: Int64, resolution: Int64, points: Int) -> StatisticsSeries {
        var series = StatisticsSeries.empty
        for index in 0..<points {
            let start = now - Int64(points - index) * resolution
            // Each bucket starts at the previous bucket's last sample, so no growth falls between.
            guard
                let (counted, milliseconds) = delta(
                    namespace, from: start, until: start + resolution, reach: resolution)
            else {
                series.hitRate.append(.nan)
                series.operations.append(.nan)
                series.evictions.append(.nan)
                continue
            }
            let seconds = Double(milliseconds) / 1000
            series.hitRate.append(counted.requests > 0 ? counted.hitRate : .nan)
            series.operations.append(Double(Self.operations(counted)) / seconds)
            series.evictions.append(Double(counted.evictions) / seconds)
        }
        let start = now - Int64(points) * resolution
        series.totals = activity(namespace, from: start, until: now, reach: resolution).map(ActivityCounts.init)
        return series
    }

    /// Reads, sets and removes.
    static func operations(_ counted: CacheStatistics) -> Int {
        counted.requests.addingClamped(counted.sets).addingClamped(counted.removes)
    }

    private static func growth(from old: CacheStatistics, to new: CacheStatistics) -> CacheStatistics {
        CacheStatistics(
            memoryHits: max(0, new.memoryHits - old.memoryHits), diskHits: max(0, new.diskHits - old.diskHits),
            misses: max(0, new.misses - old.misses), staleHits: max(0, new.staleHits - old.staleHits),
            sets: max(0, new.sets - old.sets), removes: max(0, new.removes - old.removes),
            evictions: max(0, new.evictions - old.evictions), evictedBytes: max(0, new.evictedBytes - old.evictedBytes),
            expirations: max(0, new.expirations - old.expirations),
            invalidations: max(0, new.invalidations - old.invalidations),
            loadSuccesses: max(0, new.loadSuccesses - old.loadSuccesses),
            loadFailures: max(0, new.loadFailures - old.loadFailures), totalLoadTime: .zero)
    }
}
