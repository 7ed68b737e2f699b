import CacheCore
import CacheCoreRedis
import Foundation

/// The purge rows: emptying a namespace through the store (`removeAll`, a new generation then
/// `SCAN` + `UNLINK` of the old one) and removing it by prefix (`invalidate(prefix:)`, `SCAN` +
/// `UNLINK` of the matching entries), against `SCAN` + `UNLINK` of as many raw keys.
extension RedisBenchmark {
    /// What each timed side of a purge round does.
    private enum PurgeSide: Int, CaseIterable {
        case clear, prefix, rawStrings, rawHashes

        var isStore: Bool { self == .clear || self == .prefix }
    }

    /// The raw keys share the namespace's hash tag, so on a cluster they live in its slot, on
    /// its node: every side walks the same node's keyspace (the others' keys are there too).
    private static let namespace = "purge"
    private static let rawStrings = "rawpurge{purge}:"
    private static let rawHashes = "rawhash{purge}:"

    func measurePurges(_ store: RedisStore, _ raw: RedisRawClient) throws {
        let cache = try store.dataCache(Self.namespace, key: String.self, policy: NamespacePolicy(expiration: .never))
        let purgeKeys = Workload.keys("p", count: purgeSize)
        var times = [[Double]](repeating: [], count: PurgeSide.allCases.count)
        for round in 0..<6 {
            try fillPurgeKeys(purgeKeys, cache: cache, raw: raw, store: true)
            try fillPurgeKeys(purgeKeys, cache: cache, raw: raw, store: false)
            var storeFilled = true
            // Each side purges alone, going first in turn: a SCAN walks the whole keyspace.
            for offset in 0..<PurgeSide.allCases.count {
                guard let side = PurgeSide(rawValue: (round + offset) % PurgeSide.allCases.count) else { continue }
                if side.isStore && !storeFilled { try fillPurgeKeys(purgeKeys, cache: cache, raw: raw, store: true) }
                let start = ContinuousClock.now
                let removed =
                    switch side {
                    case .clear: try cache.removeAll()
                    case .prefix: try cache.invalidate(prefix: "p").totalRemoved
                    case .rawStrings: try raw.unlinkMatching(Self.rawStrings + "*")
                    case .rawHashes: try raw.unlinkMatching(Self.rawHashes + "*")
                    }
                guard removed == purgeSize else { throw BenchError("\(side) purged \(removed) of \(purgeSize)") }
                times[side.rawValue].append((ContinuousClock.now - start).nanoseconds / Double(removed))
                if side.isStore { storeFilled = false }
            }
        }
        recordPurges(times.map(Timing.median))
    }

    /// Writes the purge's entries through the store, or its raw strings and hashes (hashes
    /// with the fields an entry holds), 1,000 a call.
    private func fillPurgeKeys(_ keys: [String], cache: Cache<String, Data>, raw: RedisRawClient, store: Bool) throws {
        for start in stride(from: 0, to: keys.count, by: 1000) {
            let slice = keys[start..<min(start + 1000, keys.count)]
            if store {
                try cache.set(slice.map { (key: $0, value: value) })
            } else {
                try raw.pipeline(slice.map { ["SET", .init(Self.rawStrings + $0), .init(value)] })
                try raw.pipeline(
                    slice.map { ["HSET", .init(Self.rawHashes + $0), "v", .init(value), "c", "1700000000000", "w", "1"] })
            }
        }
    }

    /// The rows and the rates, from each side's median nanoseconds per entry.
    private func recordPurges(_ medians: [Double]) {
        let strings = medians[PurgeSide.rawStrings.rawValue]
        let hashes = medians[PurgeSide.rawHashes.rawValue]
        for (side, name) in [(PurgeSide.clear, "removeAll"), (.prefix, "invalidate(prefix:)")] {
            let ours = medians[side.rawValue]
            record(
                ReportRow(
                    operation: "purge by \(name), per entry (vs raw SCAN + UNLINK)",
                    times: Timing.Pair(cacheCore: ours, baseline: strings), budget: .atMost(1.2, label: "≤ 1.2×")))
            record(
                ReportRow(
                    operation: "purge by \(name), per entry (vs raw SCAN + UNLINK of hashes like its entries)",
                    times: Timing.Pair(cacheCore: ours, baseline: hashes), budget: .informational))
        }
        report.note(
            "purges of \(Format.count(purgeSize)) entries: removeAll \(Format.rate(medians[PurgeSide.clear.rawValue])) "
                + "entries/s, invalidate(prefix:) \(Format.rate(medians[PurgeSide.prefix.rawValue])) entries/s "
                + "(raw SCAN + UNLINK \(Format.rate(strings)) string keys/s, \(Format.rate(hashes)) hash keys/s)")
    }
}
