import CacheCore
import Foundation

/// Telemetry points laid out over a fixed window: missing buckets count as nothing happened.
struct TelemetryWindow {
    /// The window's first instant.
    let start: Date
    /// Its length.
    let seconds: Int

    /// The hit rate of every second, and rates over the last ten complete seconds.
    func activity(_ points: [TelemetryPoint]) -> ActivityFacts {
        let perSecond = buckets(points, count: seconds)
        let recent = perSecond.dropLast().suffix(10)
        let minute = perSecond.reduce(CacheStatistics.zero, +)
        let elapsed = Double(max(1, recent.count))
        return ActivityFacts(
            hitRates: perSecond.map { $0.requests > 0 ? $0.hitRate : .nan },
            hitRate: minute.requests > 0 ? minute.hitRate : nil,
            operationsPerSecond: Double(recent.reduce(0) { $0 + $1.requests + $1.sets + $1.removes }) / elapsed,
            expirationsPerSecond: Double(recent.reduce(0) { $0 + $1.expirations }) / elapsed,
            evictionsPerSecond: Double(recent.reduce(0) { $0 + $1.evictions }) / elapsed)
    }

    /// Everything the points counted inside the window.
    func total(_ points: [TelemetryPoint]) -> CacheStatistics {
        points.filter { $0.start >= start }.reduce(.zero) { $0 + $1.statistics }
    }

    /// The graph series over ``StatisticsWindow/buckets`` equal buckets.
    func series(_ points: [TelemetryPoint]) -> StatisticsSeries {
        let count = StatisticsWindow.buckets
        let width = Double(seconds) / Double(count)
        let counts = buckets(points, count: count)
        return StatisticsSeries(
            hitRate: counts.map { $0.requests > 0 ? $0.hitRate : .nan },
            operations: counts.map { Double($0.requests + $0.sets + $0.removes) / width },
            evictions: counts.map { Double($0.evictions) / width })
    }

    /// The points summed into `count` equal buckets from ``start``.
    private func buckets(_ points: [TelemetryPoint], count: Int) -> [CacheStatistics] {
        var result = Array(repeating: CacheStatistics.zero, count: count)
        let width = Double(seconds) / Double(count)
        for point in points {
            let index = Int((point.start.timeIntervalSince(start) / width).rounded(.down))
            guard result.indices.contains(index) else { continue }
            result[index] += point.statistics
        }
        return result
    }
}
