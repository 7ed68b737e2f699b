import CacheCore
import Foundation

extension MaintenanceBenchmark {
    /// Rows: get hit and get miss through a store that counts statistics (and writes its
    /// telemetry every second) against one with statistics off, on the same file and keys.
    func measureStatisticsOverhead() throws {
        let path = directory.file("statistics.sqlite")
        let counting = try CacheStore(path: path)
        var quiet = StoreOptions()
        quiet.statistics = .disabled
        let silent = try CacheStore(path: path, options: quiet)
        defer {
            try? counting.close()
            try? silent.close()
        }
        progress("Populating \(settings.liveEntries) entries for the statistics comparison…")
        let keys = Workload.keys("r", count: settings.liveEntries)
        let writer = try counting.dataCache("reads", key: String.self)
        let value = Data(count: settings.valueSize)
        for start in stride(from: 0, to: keys.count, by: 1000) {
            try writer.set(keys[start..<min(start + 1000, keys.count)].map { (key: $0, value: value) })
        }
        try counting.flush()

        let on = try counting.dataCache("reads", key: String.self)
        let off = try silent.dataCache("reads", key: String.self)
        let plan = settings.reads
        let hits = Workload.randomOrder(of: keys, length: plan.total, generator: &generator)
        let hitTimes = try Timing.compare(
            plan,
            cacheCore: { round in
                for key in hits[plan.range(round)] where try on.get(key) == nil { throw BenchError("miss on \(key)") }
            },
            baseline: { round in
                for key in hits[plan.range(round)] where try off.get(key) == nil { throw BenchError("miss on \(key)") }
            })
        record(
            ReportRow(
                operation: "get hit, statistics on (vs off)", times: hitTimes, budget: .atMost(1.05, label: "≤ 1.05×")))

        let misses = Workload.keys("m", count: plan.total)
        let missTimes = try Timing.compare(
            plan,
            cacheCore: { round in
                for key in misses[plan.range(round)] where try on.get(key) != nil { throw BenchError("hit on \(key)") }
            },
            baseline: { round in
                for key in misses[plan.range(round)] where try off.get(key) != nil { throw BenchError("hit on \(key)") }
            })
        record(ReportRow(operation: "get miss, statistics on (vs off)", times: missTimes, budget: .informational))
        let counted = on.statistics()
        guard counted.diskHits == plan.total, counted.misses == plan.total else {
            throw BenchError("statistics counted \(counted.diskHits) hits and \(counted.misses) misses")
        }
    }
}
