import CacheCore
import Foundation

extension CoreBenchmark {
    /// Rows: durable set, JSON-typed set, batched sets and delete — both sides write the same
    /// fresh keys, in the same order, into the same namespace of their own file.
    func measureWrites() throws {
        let writes = try store.dataCache("writes", key: String.self)
        let plan = settings.writes

        let setKeys = Workload.keys("s", count: plan.total)
        let setTimes = try Timing.compare(
            plan,
            cacheCore: { round in
                for index in plan.range(round) { try writes.set(value(index), for: setKeys[index]) }
            },
            baseline: { round in
                for index in plan.range(round) {
                    try floor.set(namespace: "writes", key: setKeys[index], value: value(index))
                }
            })
        record(ReportRow(operation: "durable set (autocommit)", times: setTimes, budget: .atMost(1.8, label: "≤ 1.8×")))
        try settle()

        // The same sets, each with an app-given sort value (its index entry is the cost).
        let sorted = try store.dataCache("sorted", key: String.self)
        let sortedKeys = Workload.keys("v", count: plan.total)
        let sortedTimes = try Timing.compare(
            plan,
            cacheCore: { round in
                for index in plan.range(round) {
                    try sorted.set(value(index), for: sortedKeys[index], sortValue: Int64(index))
                }
            },
            baseline: { round in
                for index in plan.range(round) {
                    try floor.set(namespace: "sorted", key: sortedKeys[index], value: value(index))
                }
            })
        record(
            ReportRow(
                operation: "durable set with a sort value", times: sortedTimes, budget: .atMost(1.8, label: "≤ 1.8×")))
        try settle()

        let json = try store.cache("json", key: String.self, value: BenchRecord.self)
        let records = Workload.records(count: plan.total)
        let encoded = try Workload.encoded(records)
        let jsonTimes = try Timing.compare(
            plan,
            cacheCore: { round in
                for index in plan.range(round) { try json.set(records[index], for: setKeys[index]) }
            },
            baseline: { round in
                for index in plan.range(round) {
                    try floor.set(namespace: "json", key: setKeys[index], value: encoded[index])
                }
            })
        record(ReportRow(operation: "set, JSON Codable (vs raw bytes)", times: jsonTimes, budget: .informational))
        try settle()

        let batchKeys = try measureBatchedSets(writes)

        // Delete entries the batched-set row wrote, in random order.
        guard batchKeys.count >= plan.total else { throw BenchError("too few batched keys to delete") }
        let removals = Workload.randomOrder(
            of: Array(batchKeys.prefix(plan.total)), length: plan.total, generator: &generator)
        let removeTimes = try Timing.compare(
            plan,
            cacheCore: { round in
                for index in plan.range(round) where try !writes.remove(removals[index]) {
                    throw BenchError("CacheCore had no \(removals[index]) to delete")
                }
            },
            baseline: { round in
                for index in plan.range(round) where try !floor.remove(namespace: "writes", key: removals[index]) {
                    throw BenchError("the floor had no \(removals[index]) to delete")
                }
            })
        record(ReportRow(operation: "delete (autocommit)", times: removeTimes, budget: .atMost(1.8, label: "≤ 1.8×")))
        try settle()
    }

    /// Row: `set` of 1000 entries per call against `BEGIN IMMEDIATE`, 1000 upserts, `COMMIT`.
    /// Returns the keys written (each side wrote them all).
    private func measureBatchedSets(_ writes: Cache<String, Data>) throws -> [String] {
        let plan = settings.batches
        let keys = Workload.keys("b", count: plan.total * settings.batchSize)
        let batches = stride(from: 0, to: keys.count, by: settings.batchSize).map { start in
            (start..<start + settings.batchSize).map { (key: keys[$0], value: value($0)) }
        }
        let times = try Timing.compare(
            plan, operationsPerRound: plan.perRound * settings.batchSize,
            cacheCore: { round in
                for batch in plan.range(round) { try writes.set(batches[batch]) }
            },
            baseline: { round in
                for batch in plan.range(round) {
                    try floor.inTransaction {
                        for row in batches[batch] { try floor.set(namespace: "writes", key: row.key, value: row.value) }
                    }
                }
            })
        record(
            ReportRow(
                operation: "batched sets (1000 per call), per entry", times: times,
                budget: .atMost(2, label: "rate ≥ 0.5× (≤ 2.0×)")))
        note(
            "batched sets: CacheCore \(Format.rate(times.cacheCore)) entries/s, "
                + "floor \(Format.rate(times.baseline)) entries/s")
        try settle()
        return keys
    }
}
