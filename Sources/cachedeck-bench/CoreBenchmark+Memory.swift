import CacheCore
import Foundation
import Synchronization

extension CoreBenchmark {
    /// Rows: memory-only and hybrid gets that hit memory, against lookups in a
    /// `Dictionary<String, Data>` behind a `Mutex` (what an app would hand-write), single
    /// thread: over every key of the read rows (random order, so most lookups miss the CPU
    /// caches) and over a hot set of 1,000 keys (which stays in them). Entries never expire,
    /// except in the "1 h TTL" rows, where each hit must also read the clock: their baseline
    /// is a dictionary of values with their expiries that reads the wall clock under the lock
    /// and checks the expiry, as the tier must.
    func measureMemoryHits() throws {
        let plan = settings.memoryReads
        let all = Workload.keys("r", count: settings.entries)
        for (label, keys) in [("\(Format.count(all.count)) keys", all), ("1k hot keys", Array(all.prefix(1000)))] {
            let baseline = Mutex([String: Data]())
            let expiring = Mutex([String: (value: Data, expiresAt: Int64)]())
            let expiresAt = SystemClock().nowMilliseconds() + 3_600_000
            baseline.withLock { map in
                for (index, key) in keys.enumerated() { map[key] = value(index) }
            }
            expiring.withLock { map in
                for (index, key) in keys.enumerated() { map[key] = (value(index), expiresAt) }
            }
            let order = Workload.randomOrder(of: keys, length: plan.total, generator: &generator)
            let kinds: [(name: String, hit: String, tiers: CacheTiers, expiration: Expiration)] = [
                ("memory-only", "memory hit", .memory, .never), ("hybrid", "memory hit", .memoryAndDisk, .never),
                ("memory-only", "memory hit with 1 h TTL", .memory, .after(.seconds(3600))),
            ]
            for (name, hit, tiers, expiration) in kinds {
                var policy = NamespacePolicy(tiers: tiers, expiration: expiration)
                policy.memoryMaxEntries = keys.count
                let cache = try store.dataCache(
                    "\(name)-hits-\(keys.count)\(expiration == .never ? "" : "-ttl")", key: String.self, policy: policy)
                for start in stride(from: 0, to: keys.count, by: settings.batchSize) {
                    let end = min(start + settings.batchSize, keys.count)
                    try cache.set((start..<end).map { (key: keys[$0], value: value($0)) })
                }
                let readsClock = expiration != .never
                let times = try Timing.compare(
                    plan,
                    cacheCore: { round in
                        for key in order[plan.range(round)] where try cache.get(key) == nil {
                            throw BenchError("\(name) missed \(key)")
                        }
                    },
                    baseline: { round in
                        for key in order[plan.range(round)] {
                            let found =
                                readsClock
                                ? expiring.withLock { map in
                                    map[key].flatMap { SystemClock().nowMilliseconds() < $0.expiresAt ? $0.value : nil }
                                } : baseline.withLock { $0[key] }
                            if found == nil { throw BenchError("the dictionary missed \(key)") }
                        }
                    })
                record(
                    ReportRow(
                        operation: "\(name) get, \(hit), \(label) (vs Dictionary + Mutex\(readsClock ? " + clock" : ""))",
                        times: times, budget: .atMost(1.2, label: "≤ 1.2×")))
            }
        }
        try settle()
    }
}
