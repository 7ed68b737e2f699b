import CacheCore
import CacheCoreRedis
import Foundation

/// The `redis` rows: a ``RedisStore``'s gets, sets, deletes and purges against the same
/// operations as raw commands on one connection (the client layer's floor, one round trip
/// each) on the same server; its near-cache hit against a file store's memory hit; and how
/// long one store's set takes to drop another store's near-cache copy (by push).
final class RedisBenchmark {
    private let url: String
    private let keys: [String]
    private let plan: RoundPlan
    private let purgeSize: Int
    private let directory: TemporaryDirectory
    private let value = Data(repeating: 7, count: 100)
    private var report = Report()

    init(quick: Bool, url: String, directory: TemporaryDirectory) {
        self.url = url
        plan = quick ? RoundPlan(rounds: 5, perRound: 1000) : RoundPlan(rounds: 11, perRound: 5000)
        keys = Workload.keys("k", count: plan.total)
        purgeSize = quick ? 10_000 : 50_000
        self.directory = directory
    }

    var summary: String {
        """
        cachedeck-bench redis: \(url.contains("@") ? "(server)" : url), 100-byte values; median of \
        \(plan.rounds) rounds × \(plan.perRound) operations; purges of \(purgeSize) entries
        """
    }

    func run() throws -> Report {
        let raw = try RedisRawClient(url: url)
        try raw.command(["FLUSHDB"])
        let store = try RedisStore(url: url)
        defer { store.close() }
        let cache = try store.dataCache("bench", key: String.self, policy: NamespacePolicy(expiration: .never))
        try measureSets(cache, raw)
        try measureGets(cache, raw)
        try measureDeletes(cache, raw)
        try measurePurges(store, raw)
        try measureNearCacheHits(store)
        try measureCoherence()
        return report
    }

    private func measureSets(_ cache: Cache<String, Data>, _ raw: RedisRawClient) throws {
        let times = try Timing.compare(
            plan,
            cacheCore: { round in for key in keys[plan.range(round)] { try cache.set(value, for: key) } },
            baseline: { round in
                for key in keys[plan.range(round)] { try raw.command(["SET", .init("raw:" + key), .init(value)]) }
            })
        record(ReportRow(operation: "set (vs raw SET)", times: times, budget: .atMost(1.2, label: "≤ 1.2×")))
    }

    private func measureGets(_ cache: Cache<String, Data>, _ raw: RedisRawClient) throws {
        let times = try Timing.compare(
            plan,
            cacheCore: { round in
                for key in keys[plan.range(round)] where try cache.get(key) == nil { throw BenchError("missed \(key)") }
            },
            baseline: { round in
                for key in keys[plan.range(round)] where try raw.command(["GET", .init("raw:" + key)]) == 0 {
                    throw BenchError("raw missed \(key)")
                }
            })
        record(
            ReportRow(
                operation: "get hit, no near cache (vs raw GET)", times: times, budget: .atMost(1.2, label: "≤ 1.2×")))
    }

    /// Removes the keys the set rows wrote, a round's worth at a time.
    private func measureDeletes(_ cache: Cache<String, Data>, _ raw: RedisRawClient) throws {
        let times = try Timing.compare(
            plan,
            cacheCore: { round in for key in keys[plan.range(round)] { try cache.remove(key) } },
            baseline: { round in for key in keys[plan.range(round)] { try raw.command(["DEL", .init("raw:" + key)]) } })
        record(ReportRow(operation: "remove (vs raw DEL)", times: times, budget: .atMost(1.2, label: "≤ 1.2×")))
    }

    /// `removeAll` of a namespace (a new generation, then SCAN + UNLINK of the old one) against
    /// SCAN + UNLINK of as many plain keys.
    private func measurePurges(_ store: RedisStore, _ raw: RedisRawClient) throws {
        let cache = try store.dataCache("purge", key: String.self, policy: NamespacePolicy(expiration: .never))
        let purgeKeys = Workload.keys("p", count: purgeSize)
        // Per entry: the store's purge, raw SCAN + UNLINK of plain strings (the floor), and of
        // hashes with the fields an entry holds (what freeing an entry itself costs the server).
        var times: [[Double]] = [[], [], []]
        // Each side purges alone in the same keyspace (the others' keys are there too), going
        // first in turn: a SCAN walks the whole database.
        for round in 0..<6 {
            for start in stride(from: 0, to: purgeKeys.count, by: 1000) {
                let slice = purgeKeys[start..<min(start + 1000, purgeKeys.count)]
                try cache.set(slice.map { (key: $0, value: value) })
                try raw.pipeline(slice.map { ["SET", .init("rawpurge:" + $0), .init(value)] })
                try raw.pipeline(
                    slice.map { ["HSET", .init("rawhash:" + $0), "v", .init(value), "c", "1700000000000", "w", "1"] })
            }
            for offset in 0..<3 {
                let side = (round + offset) % 3
                let start = ContinuousClock.now
                let removed =
                    switch side {
                    case 0: try cache.removeAll()
                    case 1: try raw.unlinkMatching("rawpurge:*")
                    default: try raw.unlinkMatching("rawhash:*")
                    }
                guard removed == purgeSize else { throw BenchError("purged \(removed) of \(purgeSize)") }
                times[side].append((ContinuousClock.now - start).nanoseconds / Double(removed))
            }
        }
        let ours = Timing.median(times[0])
        let strings = Timing.Pair(cacheCore: ours, baseline: Timing.median(times[1]))
        record(
            ReportRow(
                operation: "purge, per entry (vs raw SCAN + UNLINK)", times: strings,
                budget: .atMost(1.2, label: "≤ 1.2×")))
        let hashes = Timing.Pair(cacheCore: ours, baseline: Timing.median(times[2]))
        record(
            ReportRow(
                operation: "purge, per entry (vs raw SCAN + UNLINK of hashes like its entries)", times: hashes,
                budget: .informational))
        report.note(
            "purge of \(Format.count(purgeSize)) entries: \(Format.rate(ours)) entries/s (raw SCAN + UNLINK "
                + "\(Format.rate(strings.baseline)) string keys/s, \(Format.rate(hashes.baseline)) hash keys/s)")
    }

    /// A near-cache hit (hybrid namespace on Redis) against a file store's memory hit.
    private func measureNearCacheHits(_ store: RedisStore) throws {
        let fileStore = try CacheStore(path: directory.file("memory.sqlite"))
        defer { try? fileStore.close() }
        let hitKeys = Array(keys.prefix(1000))
        let near = try store.dataCache("near", key: String.self, policy: .hybrid)
        let file = try fileStore.dataCache("near", key: String.self, policy: .hybrid)
        for key in hitKeys {
            try near.set(value, for: key)
            try file.set(value, for: key)
        }
        try store.synchronize()  // its own sets' pushes dropped its copies: read them back in
        for key in hitKeys { _ = try near.get(key) }
        guard near.memoryUsage.entries == hitKeys.count else { throw BenchError("near cache not filled") }
        let reads = RoundPlan(rounds: plan.rounds, perRound: 200_000)
        let times = try Timing.compare(
            reads,
            cacheCore: { round in
                for index in reads.range(round) where try near.get(hitKeys[index % hitKeys.count]) == nil {
                    throw BenchError("near-cache miss")
                }
            },
            baseline: { round in
                for index in reads.range(round) where try file.get(hitKeys[index % hitKeys.count]) == nil {
                    throw BenchError("memory miss")
                }
            })
        record(
            ReportRow(
                operation: "near-cache hit (vs file store's memory hit)", times: times,
                budget: .atMost(1.2, label: "≤ 1.2× (unchanged)")))
    }

    /// Store A sets a key store B holds in its near cache; B polls until the copy is gone.
    private func measureCoherence() throws {
        let a = try RedisStore(url: url)
        let b = try RedisStore(url: url)
        defer {
            a.close()
            b.close()
        }
        let onA = try a.dataCache("coherence", key: String.self, policy: .hybrid)
        let onB = try b.dataCache("coherence", key: String.self, policy: .hybrid)
        var delays = LatencySample()
        let samples = plan.rounds * 40
        for index in 0..<samples {
            let key = "c\(index)"
            try onA.set(value, for: key)
            try b.synchronize()
            _ = try onB.get(key)
            guard onB.memoryUsage.entries == 1 else { throw BenchError("b did not keep its copy of \(key)") }
            let start = ContinuousClock.now
            try onA.set(value, for: key)
            while onB.memoryUsage.entries > 0 {
                if ContinuousClock.now - start > .seconds(5) { throw BenchError("no push for \(key) in 5 s") }
            }
            delays.add((ContinuousClock.now - start).nanoseconds)
        }
        report.note(
            "coherence delay (store A sets a key store B holds in its near cache, until B's copy is gone), "
                + "\(delays.count) sets: p50 \(Format.microseconds(delays.percentile(0.5))) µs, "
                + "p99 \(Format.microseconds(delays.percentile(0.99))) µs, "
                + "max \(Format.microseconds(delays.maximum)) µs; goal p99 ≤ 50 ms: "
                + (delays.percentile(0.99) <= 50_000_000 ? "PASS" : "FAIL"))
        print("  coherence: p50 \(Format.microseconds(delays.percentile(0.5))) µs")
    }

    private func record(_ row: ReportRow) {
        report.add(row)
        progress(row.progressLine)
    }
}
