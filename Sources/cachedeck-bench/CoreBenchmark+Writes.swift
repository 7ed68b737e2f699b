import CacheCore
import Foundation

extension CoreBenchmark {
    /// Rows: durable set, JSON-typed set, batched sets and remove — each side writes the same
    /// fresh keys into its own namespace of the same table.
    func measureWrites() throws {
        let writes = try namespace("writes").cache
        let rawID = try namespace("writes-raw").id
        let plan = settings.writes

        let setKeys = Workload.keys("s", count: plan.total)
        let setTimes = try Timing.compare(
            plan,
            cacheCore: { round in
                for index in plan.range(round) { try writes.set(value(index), for: setKeys[index]) }
            },
            baseline: { round in
                for index in plan.range(round) {
                    try raw.set(namespaceID: rawID, key: setKeys[index], value: value(index))
                }
            })
        record(ReportRow(operation: "durable set (autocommit)", times: setTimes, budget: .atMost(1.3, label: "≤ 1.3×")))
        try settle()

        let json = try store.cache("json", key: String.self, value: BenchRecord.self)
        let jsonRawID = try namespace("json-raw").id
        let records = Workload.records(count: plan.total)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let encoded = try records.map { try encoder.encode($0) }
        let jsonTimes = try Timing.compare(
            plan,
            cacheCore: { round in
                for index in plan.range(round) { try json.set(records[index], for: setKeys[index]) }
            },
            baseline: { round in
                for index in plan.range(round) {
                    try raw.set(namespaceID: jsonRawID, key: setKeys[index], value: encoded[index])
                }
            })
        record(ReportRow(operation: "set, JSON Codable (vs raw bytes)", times: jsonTimes, budget: .informational))
        try settle()

        let batchKeys = try measureBatchedSets(writes, rawID: rawID)

        // Remove entries the batched-set row wrote, in random order.
        guard batchKeys.count >= plan.total else { throw BenchError("too few batched keys to remove") }
        let removals = Workload.randomOrder(
            of: Array(batchKeys.prefix(plan.total)), length: plan.total, generator: &generator)
        let removeTimes = try Timing.compare(
            plan,
            cacheCore: { round in
                for index in plan.range(round) where try !writes.remove(removals[index]) {
                    throw BenchError("CacheCore had no \(removals[index]) to remove")
                }
            },
            baseline: { round in
                for index in plan.range(round) where try !raw.remove(namespaceID: rawID, key: removals[index]) {
                    throw BenchError("raw had no \(removals[index]) to remove")
                }
            })
        record(ReportRow(operation: "remove (autocommit)", times: removeTimes, budget: .informational))
        try settle()
    }

    /// Row: `set` of 1000 entries per call against `BEGIN IMMEDIATE`, 1000 upserts, `COMMIT`.
    /// Returns the keys written (each side wrote them all in its own namespace).
    private func measureBatchedSets(_ writes: Cache<String, Data>, rawID: Int64) throws -> [String] {
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
                    try raw.inTransaction {
                        for row in batches[batch] { try raw.set(namespaceID: rawID, key: row.key, value: row.value) }
                    }
                }
            })
        record(
            ReportRow(
                operation: "batched sets (1000 per call), per entry", times: times,
                budget: .atMost(1.25, label: "rate ≥ 0.8× (≤ 1.25×)")))
        note(
            "batched sets: CacheCore \(Format.rate(times.cacheCore)) entries/s, raw \(Format.rate(times.baseline)) entries/s"
        )
        try settle()
        return keys
    }
}
