import TerminalUI
import CacheCore
/// A time window of the Statistics screen.
package enum StatisticsWindow: String, Sendable, Hashable, CaseIterable {
    /// The last five minutes.
    case fiveMinutes = "5 min"
    /// The last hour.
    case hour = "1 h"
    /// The last day.
    case day = "24 h"

    /// The next window, wrapping around.
    package var next: StatisticsWindow {
        let all = Self.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }
}

/// The series the Statistics screen graphs for one namespace (or all of them), oldest point
/// first; the newest point is still filling.
package struct StatisticsSeries: Sendable, Hashable {
    /// Hit rate per bucket (0…1; not-a-number for a bucket without reads).
    package var hitRate: [Double]
    /// Reads, sets and removes per second, per bucket.
    package var operations: [Double]
    /// Evictions per second, per bucket.
    package var evictions: [Double]
    /// What apps did over the whole window (misses, evictions, …); `nil` when unknown.
    package var totals: ActivityCounts?
    /// Each point's span and counts, oldest first, where buckets have exact bounds (file and
    /// Redis telemetry); empty where the points are sampled (Redis counters over 5 min).
    package var spans: [Activity] = []
    /// The width of a bucket in milliseconds (0 without ``spans``).
    package var resolution: Int64 = 0

    /// Series with these values.
    package init(hitRate: [Double], operations: [Double], evictions: [Double], totals: ActivityCounts? = nil) {
        self.totals = totals
        self.hitRate = hitRate
        self.operations = operations
        self.evictions = evictions
    }

    /// Series without a single value.
    package static let empty = StatisticsSeries(hitRate: [], operations: [], evictions: [])
}

/// Telemetry over a window, overall and per namespace.
package struct StatisticsSnapshot: Sendable, Hashable {
    /// The window.
    package var window: StatisticsWindow
    /// Every namespace together.
    package var overall: StatisticsSeries
    /// By namespace name (namespaces without telemetry are absent).
    package var namespaces: [String: StatisticsSeries]

    /// A snapshot with these values.
    package init(window: StatisticsWindow, overall: StatisticsSeries, namespaces: [String: StatisticsSeries]) {
        self.window = window
        self.overall = overall
        self.namespaces = namespaces
    }
}

extension StatisticsSeries {
    /// The points of `series` and its total.
    init(_ series: ActivitySeries) {
        self.init(
            hitRate: series.points.map { $0.hitRate ?? .nan }, operations: series.points.map(\.operationsPerSecond),
            evictions: series.points.map(\.evictionsPerSecond), totals: ActivityCounts(series.total))
        spans = series.points
        resolution = series.window.resolutionMilliseconds
    }

    /// The Entries filter of what was written in bucket `index` (`created>=start
    /// created<end`), or `nil` when the bucket has no exact bounds.
    func writtenFilter(bucket index: Int) -> String? {
        guard spans.indices.contains(index) else { return nil }
        let start = spans[index].start
        return EntryFilter([
            .createdAt(.greaterOrEqual, milliseconds: start),
            .createdAt(.less, milliseconds: start.addingClamped(resolution)),
        ]).description
    }
}
