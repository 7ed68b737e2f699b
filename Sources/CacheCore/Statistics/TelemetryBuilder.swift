import Foundation

/// Sums `stats` rows into the overall, per-namespace and per-process series of a
/// ``Telemetry``, re-bucketing rows finer than the requested width.
struct TelemetryBuilder {
    private struct Bucket: Hashable {
        let start: Int64
        let width: Int64
    }

    /// The requested bucket width in milliseconds.
    let width: Int64

    func build(_ rows: [SQLiteConnection.StatsRow]) -> Telemetry {
        var overall: [Bucket: CacheStatistics] = [:]
        var namespaces: [String: [Bucket: CacheStatistics]] = [:]
        var processes: [Int64: [Bucket: CacheStatistics]] = [:]
        for row in rows {
            let bucket =
                row.resolution <= width
                ? Bucket(start: row.bucket - ((row.bucket % width) + width) % width, width: width)
                : Bucket(start: row.bucket, width: row.resolution)
            overall[bucket, default: .zero] += row.counts
            namespaces[row.namespace, default: [:]][bucket, default: .zero] += row.counts
            processes[row.clientID, default: [:]][bucket, default: .zero] += row.counts
        }
        return Telemetry(
            overall: Self.series(overall), namespaces: namespaces.mapValues(Self.series),
            processes: processes.mapValues(Self.series))
    }

    private static func series(_ buckets: [Bucket: CacheStatistics]) -> [TelemetryPoint] {
        buckets.sorted { ($0.key.start, $0.key.width) < ($1.key.start, $1.key.width) }.map { bucket, counts in
            TelemetryPoint(
                start: Date(millisecondsSince1970: bucket.start), duration: .milliseconds(bucket.width),
                statistics: counts)
        }
    }
}
