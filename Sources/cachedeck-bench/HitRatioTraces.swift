import CacheCore
import Foundation

/// The request traces of `cachedeck-bench hitratio`: keys in `0..<keyspace`, drawn from a
/// seeded generator so every run replays the same requests.
struct HitRatioTrace {
    let name: String
    let keys: [Int]

    /// Keys by Zipf(`exponent`) popularity: key `k` is requested in proportion to 1/(k+1)^s.
    static func zipf(exponent: Double, keyspace: Int, requests: Int, seed: UInt64) -> HitRatioTrace {
        var generator = SplitMix64(seed: seed)
        let popularity = ZipfPopularity(exponent: exponent, keyspace: keyspace)
        let keys = (0..<requests).map { _ in popularity.key(for: Double.random(in: 0..<1, using: &generator)) }
        return HitRatioTrace(name: "Zipf(\(exponent))", keys: keys)
    }

    /// Zipf(1.0) requests interrupted every `period` requests by a sequential scan of a fifth
    /// of a period over the keyspace's cold half (a report or a crawler reading everything
    /// once), which an LRU cache lets flush its hot entries.
    static func scanPolluted(keyspace: Int, requests: Int, seed: UInt64) -> HitRatioTrace {
        var generator = SplitMix64(seed: seed)
        let popularity = ZipfPopularity(exponent: 1.0, keyspace: keyspace)
        let period = 100_000
        let scanLength = period / 5
        var scanned = 0
        var keys: [Int] = []
        keys.reserveCapacity(requests)
        while keys.count < requests {
            let inPeriod = keys.count % period
            if inPeriod >= period - scanLength {
                keys.append(keyspace / 2 + scanned % (keyspace / 2))
                scanned += 1
            } else {
                keys.append(popularity.key(for: Double.random(in: 0..<1, using: &generator)))
            }
        }
        return HitRatioTrace(name: "Zipf(1.0) + scans", keys: keys)
    }
}

/// The cumulative distribution of Zipf popularity over a keyspace.
private struct ZipfPopularity {
    private let cumulative: [Double]

    init(exponent: Double, keyspace: Int) {
        var total = 0.0
        var cumulative: [Double] = []
        cumulative.reserveCapacity(keyspace)
        for rank in 1...keyspace {
            total += 1 / pow(Double(rank), exponent)
            cumulative.append(total)
        }
        self.cumulative = cumulative.map { $0 / total }
    }

    /// The key at quantile `unit` (in 0..<1).
    func key(for unit: Double) -> Int {
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < unit { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
