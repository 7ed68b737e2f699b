import CacheCore
import CacheCoreRedis
import Foundation
import LocalRedis

/// The `redis` rows: a ``RedisStore``'s gets, sets, deletes and purges against the same
/// operations as raw commands (one round trip each, through the same client layer, straight
/// to the node serving the key on a cluster) in the same run; its near-cache hit against a
/// file store's memory hit; and how long one store's set takes to drop another store's
/// near-cache copy (by push), on a cluster also across a primary's failover; and another
/// client's `PING` latency while the Overview's census counts the store's entries.
final class RedisBenchmark {
    let url: String
    /// The private cluster, when the run is on one (its primary is killed last).
    let cluster: RedisCluster?
    let plan: RoundPlan
    let purgeSize: Int
    /// Entries the census rows count.
    let censusSize: Int
    let value = Data(repeating: 7, count: 100)
    private let keys: [String]
    /// The raw keys carry the store's namespace's hash tag: on a cluster both sides then talk
    /// to the same node (the namespace's keys all live on one).
    private static let rawPrefix = "raw{bench}:"
    private let directory: TemporaryDirectory
    var report = Report()

    init(quick: Bool, url: String, cluster: RedisCluster?, directory: TemporaryDirectory) {
        self.url = url
        self.cluster = cluster
        plan = quick ? RoundPlan(rounds: 5, perRound: 1000) : RoundPlan(rounds: 11, perRound: 5000)
        keys = Workload.keys("k", count: plan.total)
        purgeSize = quick ? 10_000 : 50_000
        censusSize = quick ? 20_000 : 100_000
        self.directory = directory
    }

    var summary: String {
        let target =
            cluster.map { "a private Redis Cluster of \($0.nodes.count / 2) primaries and as many replicas" }
            ?? (url.contains("@") ? "(server)" : url)
        return """
            cachedeck-bench redis: \(target), 100-byte values; median of \(plan.rounds) rounds × \
            \(plan.perRound) operations; purges of \(purgeSize) entries; a census of \(censusSize)
            """
    }

    func run() throws -> Report {
        let raw = try RedisRawClient(url: url)
        try raw.onEveryNode(["FLUSHDB"])
        let store = try RedisStore(url: url)
        defer { store.close() }
        let cache = try store.dataCache("bench", key: String.self, policy: NamespacePolicy(expiration: .never))
        try measureSets(cache, raw)
        try measureGets(cache, raw)
        try measureDeletes(cache, raw)
        try measurePurges(store, raw)
        try measureNearCacheHits(store)
        try measureCensus(store)
        try measureCoherence(raw)
        return report
    }

    private func measureSets(_ cache: Cache<String, Data>, _ raw: RedisRawClient) throws {
        let times = try Timing.compare(
            plan,
            cacheCore: { round in for key in keys[plan.range(round)] { try cache.set(value, for: key) } },
            baseline: { round in
                for key in keys[plan.range(round)] { try raw.command(["SET", .init(Self.rawPrefix + key), .init(value)]) }
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
                for key in keys[plan.range(round)] where try raw.command(["GET", .init(Self.rawPrefix + key)]) == 0 {
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
            baseline: { round in for key in keys[plan.range(round)] { try raw.command(["DEL", .init(Self.rawPrefix + key)]) } })
        record(ReportRow(operation: "remove (vs raw DEL)", times: times, budget: .atMost(1.2, label: "≤ 1.2×")))
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

    func record(_ row: ReportRow) {
        report.add(row)
        progress(row.progressLine)
    }
}
