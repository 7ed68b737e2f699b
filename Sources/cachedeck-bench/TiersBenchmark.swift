import CacheCore
import Foundation

/// The `tiers` rows: hybrid file hits against the file-only tier, write-behind against durable
/// sets, and how long another store's purge takes to reach a memory tier. (Memory hits
/// against a `Dictionary` behind a `Mutex` are `core` rows.)
final class TiersBenchmark {
    private let keys: [String]
    private let reads: RoundPlan
    private let writes: RoundPlan
    private let directory: TemporaryDirectory
    private let value = Data(repeating: 7, count: 100)
    private var generator = SplitMix64(seed: 0x71E25)
    private var report = Report()

    init(quick: Bool, directory: TemporaryDirectory) throws {
        keys = Workload.keys("k", count: quick ? 10_000 : 50_000)
        reads = quick ? RoundPlan(rounds: 5, perRound: 200_000) : RoundPlan(rounds: 11, perRound: 500_000)
        writes = quick ? RoundPlan(rounds: 5, perRound: 500) : RoundPlan(rounds: 11, perRound: 1000)
        self.directory = directory
    }

    var summary: String {
        """
        cachedeck-bench tiers: \(keys.count) keys, 100-byte values; median of \(reads.rounds) rounds × \
        \(reads.perRound) reads, \(writes.rounds) × \(writes.perRound) writes
        """
    }

    func run() throws -> Report {
        let store = try CacheStore(path: directory.file("tiers.sqlite"))
        defer { try? store.close() }
        try measureFileHitsThroughMemory(store)
        try measureWriteBehind(store)
        try measureCoherenceDelay(store)
        return report
    }

    /// Hybrid gets whose keys are mostly not in a small memory tier: each is a file read plus
    /// a copy into memory (and an eviction), against file-only gets of the same keys.
    private func measureFileHitsThroughMemory(_ store: CacheStore) throws {
        var policy = NamespacePolicy(tiers: .memoryAndDisk, expiration: .never)
        policy.memoryMaxEntries = 100
        let hybrid = try store.dataCache("promote", key: String.self, policy: policy)
        let fileOnly = try store.dataCache("promote", key: String.self, policy: NamespacePolicy(expiration: .never))
        try fill(fileOnly)
        try store.flush()
        let plan = RoundPlan(rounds: reads.rounds, perRound: reads.perRound / 10)
        let order = Workload.randomOrder(of: keys, length: plan.total, generator: &generator)
        let times = try Timing.compare(
            plan,
            cacheCore: { round in
                for key in order[plan.range(round)] where try hybrid.get(key) == nil {
                    throw BenchError("hybrid missed \(key)")
                }
            },
            baseline: { round in
                for key in order[plan.range(round)] where try fileOnly.get(key) == nil {
                    throw BenchError("file-only missed \(key)")
                }
            })
        record(
            ReportRow(
                operation: "hybrid get, memory miss → file hit (vs file-only get)", times: times,
                budget: .informational))
    }

    /// Write-behind sets (flushed every round) against durable write-through sets.
    private func measureWriteBehind(_ store: CacheStore) throws {
        var behind = NamespacePolicy.performance
        behind.memoryMaxEntries = keys.count
        let fast = try store.dataCache("write-behind", key: String.self, policy: behind)
        let durable = try store.dataCache("write-through", key: String.self, policy: .hybrid)
        let times = try Timing.compare(
            writes,
            cacheCore: { round in
                for key in self.keys[self.writes.range(round)] { try fast.set(self.value, for: key) }
                try store.flush()
            },
            baseline: { round in
                for key in self.keys[self.writes.range(round)] { try durable.set(self.value, for: key) }
            })
        record(
            ReportRow(
                operation: "hybrid set, write-behind incl. flush (vs write-through)", times: times,
                budget: .informational))
    }

    /// Another store on the file invalidates a key the app holds in memory; the app polls
    /// until its get misses. The delay is bounded by the coherence interval (250 ms).
    private func measureCoherenceDelay(_ store: CacheStore) throws {
        let app = try store.dataCache("coherence", key: String.self, policy: .hybrid)
        let console = try CacheStore(path: store.path, options: .inspection(writable: true))
        defer { try? console.close() }
        var delays: [Double] = []
        for index in 0..<(reads.rounds * 2) {
            let key = "c\(index)"
            try app.set(value, for: key)
            _ = try app.get(key)
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.25, using: &generator))
            let start = ContinuousClock.now
            try console.invalidate(.key(namespace: "coherence", key: key))
            while try app.get(key) != nil { usleep(200) }
            delays.append((ContinuousClock.now - start).nanoseconds)
        }
        let sorted = delays.sorted()
        report.note(
            "coherence delay (another store purges a key held in memory; interval 250 ms), \(delays.count) purges: "
                + "median \(Format.milliseconds(Timing.median(delays))) ms, "
                + "max \(Format.milliseconds(sorted.last ?? .nan)) ms")
        print("  coherence: median \(Format.milliseconds(Timing.median(delays))) ms")
    }

    private func fill(_ cache: Cache<String, Data>) throws {
        for start in stride(from: 0, to: keys.count, by: 1000) {
            try cache.set(keys[start..<min(start + 1000, keys.count)].map { (key: $0, value: value) })
        }
    }

    private func record(_ row: ReportRow) {
        report.add(row)
        progress(row.progressLine)
    }
}
