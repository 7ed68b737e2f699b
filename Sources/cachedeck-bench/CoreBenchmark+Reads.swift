import CacheCore
import Foundation

extension CoreBenchmark {
    /// Rows: get hit (read-write and read-only store), get miss, and a JSON-typed get hit —
    /// point reads in random key order against the raw SELECT on the same rows.
    func measureReads() throws {
        progress("Populating \(settings.entries) entries…")
        let (reads, readsID) = try namespace("reads")
        let keys = Workload.keys("r", count: settings.entries)
        try populate(reads, keys: keys)
        let json = try store.cache("json", key: String.self, value: BenchRecord.self)
        let records = Workload.records(count: min(settings.entries, 20_000))
        for start in stride(from: 0, to: records.count, by: settings.batchSize) {
            let end = min(start + settings.batchSize, records.count)
            try json.set((start..<end).map { (key: keys[$0], value: records[$0]) })
        }
        try settle()

        let hits = Workload.randomOrder(of: keys, length: settings.reads.total, generator: &generator)
        let hitTimes = try compareGets(hits, namespaceID: readsID, found: true) { try reads.get($0) != nil }
        record(ReportRow(operation: "get hit", times: hitTimes, budget: .atMost(1.5, label: "≤ 1.5×")))

        // The same reads through a read-only store, which keeps no access log: the difference
        // to "get hit" is what access tracking costs.
        let inspector = try CacheStore(path: store.path, options: .inspection())
        let inspected = try inspector.dataCache("reads", key: String.self)
        let readOnlyTimes = try compareGets(hits, namespaceID: readsID, found: true) { try inspected.get($0) != nil }
        try inspector.close()
        record(
            ReportRow(
                operation: "get hit, read-only store (no access log)", times: readOnlyTimes, budget: .informational))

        let misses = Workload.keys("m", count: settings.reads.total)
        let missTimes = try compareGets(misses, namespaceID: readsID, found: false) { try reads.get($0) != nil }
        record(ReportRow(operation: "get miss", times: missTimes, budget: .informational))

        let jsonHits = Workload.randomOrder(
            of: Array(keys.prefix(records.count)), length: settings.reads.total, generator: &generator)
        let jsonTimes = try compareGets(jsonHits, namespaceID: try raw.namespaceID("json"), found: true) {
            try json.get($0) != nil
        }
        record(ReportRow(operation: "get hit, JSON Codable (vs raw bytes)", times: jsonTimes, budget: .informational))
    }

    /// Times `lookup` (true when it found a value) against the raw SELECT in `namespaceID`,
    /// round by round over `keys`; every lookup on both sides must come out as `found`.
    private func compareGets(
        _ keys: [String], namespaceID: Int64, found: Bool, _ lookup: (String) throws -> Bool
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
                    let hit = try raw.get(namespaceID: namespaceID, key: key) != nil
                    if hit != found { throw BenchError("raw: unexpected \(found ? "miss" : "hit") on \(key)") }
                }
            })
        try settle()
        return times
    }
}
