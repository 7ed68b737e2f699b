import CacheCoreRedis
import Foundation

/// Latencies of individual operations, in nanoseconds, and their percentiles.
struct LatencySample {
    private(set) var values: [Double] = []

    mutating func add(_ nanoseconds: Double) { values.append(nanoseconds) }

    var count: Int { values.count }

    /// The value below which `fraction` of the sample lies (nearest rank).
    func percentile(_ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var maximum: Double { values.max() ?? .nan }
}

extension LatencySample {
    /// Adds one `PING`'s round trip on `client` (another client of the server, as the
    /// latency rows measure it), then pauses half a millisecond.
    mutating func ping(_ client: RedisRawClient) throws {
        let start = ContinuousClock.now
        try client.command(["PING"])
        add((ContinuousClock.now - start).nanoseconds)
        usleep(500)
    }
}
