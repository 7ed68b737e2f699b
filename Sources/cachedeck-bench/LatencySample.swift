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
