import Foundation

/// Counters that every process attached to a cache file wrote into it, as time series:
/// summed over everything, per namespace and per process (client).
///
/// Read it with ``CacheStore/telemetry(since:resolution:)``, also from a read-only store.
public struct Telemetry: Sendable, Hashable {
    /// Every namespace and process together, oldest bucket first.
    public var overall: [TelemetryPoint]
    /// By namespace name.
    public var namespaces: [String: [TelemetryPoint]]
    /// By client id (see ``CacheStore/clients()``).
    public var processes: [Int64: [TelemetryPoint]]

    /// Creates telemetry from series.
    public init(
        overall: [TelemetryPoint] = [], namespaces: [String: [TelemetryPoint]] = [:],
        processes: [Int64: [TelemetryPoint]] = [:]
    ) {
        self.overall = overall
        self.namespaces = namespaces
        self.processes = processes
    }

    /// The sum of every point of the overall series.
    public var total: CacheStatistics { overall.reduce(.zero) { $0 + $1.statistics } }
}

/// What happened during one time bucket.
public struct TelemetryPoint: Sendable, Hashable {
    /// When the bucket starts.
    public var start: Date
    /// How long the bucket is (buckets older than the finest tier's retention are coarser).
    public var duration: Duration
    /// The counts within the bucket.
    public var statistics: CacheStatistics

    /// Creates a point.
    public init(start: Date, duration: Duration, statistics: CacheStatistics) {
        self.start = start
        self.duration = duration
        self.statistics = statistics
    }

    /// Reads per second over the bucket.
    public var requestsPerSecond: Double { perSecond(statistics.requests) }

    /// Reads, sets and removes per second over the bucket.
    public var operationsPerSecond: Double {
        perSecond(statistics.requests + statistics.sets + statistics.removes)
    }

    private func perSecond(_ count: Int) -> Double {
        let seconds = Double(duration.milliseconds) / 1000
        return seconds > 0 ? Double(count) / seconds : 0
    }
}
