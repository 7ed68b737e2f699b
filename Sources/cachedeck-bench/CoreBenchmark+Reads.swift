import CacheCore
import Foundation

extension CoreBenchmark {
    /// Rows: get hit (read-write and read-only store), get miss, and a JSON-typed get hit —
    /// point reads in random key order against the floor's SELECT on the same keys.
    func measureReads() throws {
        progress("Populating \(settings.entries) entries on each side…")
        let keys = Workload.keys("r", count: settings.entries)
        let reads = try populate("reads", keys: keys)
        let json = try store.cache("json", key: String.self, value: BenchRecord.self)
        let records = Workload.records(count: min(settings.entries, 20_000))
        for start in stride(from: 0, to: records.count, by: settings.batchSize) {
            let end = min(start + settings.batchSize, records.count)
            try json.set((start..<end).map { (key: keys[$0], value: records[$0]) })
        }
        let encoded = try Workload.encoded(records)
        try floor.fill(
            namespace: "json", count: records.count, batchSize: settings.batchSize, key: { keys[$0] },
            value: { encoded[$0] })
        try settle()

        let hits = Workload.randomOrder(of: keys, length: settings.reads.total, generator: &generator)
        let hitTimes = try compareGets(hits, namespace: "reads", found: true) { try reads.get($0) != nil }
        record(ReportRow(operation: "get hit", times: hitTimes, budget: .atMost(1.2, label: "≤ 1.2×")))

        // The same reads through a read-only store, which keeps no access log: the difference
        // to "get hit" is what access tracking costs.
        let inspector = try CacheStore(path: store.path, options: .inspection())
        let inspected = try inspector.dataCache("reads", key: String.self)
        let readOnlyTimes = try compareGets(hits, namespace: "reads", found: true) { try inspected.get($0) != nil }
        try inspector.close()
        record(
            ReportRow(
                operation: "get hit, read-only store (no access log)", times: readOnlyTimes, budget: .informational))

        let misses = Workload.keys("m", count: settings.reads.total)
        let missTimes = try compareGets(misses, namespace: "reads", found: false) { try reads.get($0) != nil }
        record(ReportRow(operation: "get miss", times: missTimes, budget: .informational))

        let jsonHits = Workload.randomOrder(
            of: Array(keys.prefix(records.count)), length: settings.reads.total, generator: &generator)
        let jsonTimes = try compareGets(jsonHits, namespace: "json", found: true) { try json.get($0) != nil }
        record(ReportRow(operation: "get hit, JSON Codable (vs raw bytes)", times: jsonTimes, budget: .informational))
    }

    /// Times `lookup` (true when it found a value) against the floor's SELECT in `namespace`,
    /// round by round over `keys`; every lookup on both sides must come out as `found`.
    private func compareGets(
        _ keys: [String], namespace: String, found: Bool, _ lookup: (String) throws -> Bool
    ) throws -> Timing.Pair {
        let plan = settings.reads
        let times = try Timing.compare(
            plan,
            cacheCore: { round in
                for key in keys[plan.range(round)] where try lookup(key) != found {
                    throw BenchError("CacheCore: unexpected \(found ? "miss" : "hit") on \(key)")
                }
            },
            baseline: { round in
                for key in keys[plan.range(round)] {
                    let hit = try floor.get(namespace: namespace, key: key) != nil
                    if hit != found { throw BenchError("floor: unexpected \(found ? "miss" : "hit") on \(key)") }
                }
            })
        try settle()
        return times
    }
}
