import CacheCore
import Foundation

extension FormatBenchmark {
    /// Rows: the app's sweep of the expired namespace while one thread of the app reads live
    /// entries and another writes every 10 ms (``AppLoad``), against issue #26's 4 s per
    /// million under app load; the reads' p99 during the sweep against the same load without one.
    func measureSweep() throws {
        let name = FormatFilePlan.sweepNamespace
        let count = settings.sweepEntries
        let previewed = try console.admin.preview(.sweep(namespace: name)).entries
        let load = AppLoad(
            live: try app.dataCache(FormatFilePlan.namespace, key: String.self),
            writes: try app.dataCache("writes", key: String.self),
            keys: plan.sampleKeys(100_000), walPath: app.path + "-wal")
        var generator = SplitMix64(seed: 0x5_3EE9)
        progress("Timing the app's reads and writes for 1 s without a sweep…")
        let quiet = try load.run(seed: generator.next()) { Thread.sleep(forTimeInterval: 1) }
        progress("Sweeping \(Format.grouped(count)) expired entries under the same reads and writes…")
        var swept = 0
        var time = 0.0
        let busy = try load.run(seed: generator.next()) {
            (swept, time) = try timed { try app.sweepExpired(namespace: name) }
        }
        let goal = 4e9 * Double(count) / 1e6
        record(
            GoalRow(
                measure: "sweep of \(Format.grouped(count)) expired (CacheStore.sweepExpired) under app load",
                figure: String(format: "%.2f s", time / 1e9)
                    + " (\(Format.rate(time / Double(max(swept, 1)))) entries/s)",
                goal: String(format: "≤ %.1f s (4 s per 1M under load)", goal / 1e9), verdict: Verdict(time <= goal)))
        record(
            GoalRow(
                measure: "  get p99 of another thread meanwhile (vs without a sweep)",
                figure: "\(Format.microseconds(busy.reads.percentile(0.99))) µs vs "
                    + "\(Format.microseconds(quiet.reads.percentile(0.99))) µs, "
                    + "\(Format.grouped(busy.reads.count)) reads served; set p99 "
                    + "\(Format.milliseconds(busy.writes.percentile(0.99))) ms vs "
                    + "\(Format.milliseconds(quiet.writes.percentile(0.99))) ms",
                goal: "reads served", verdict: Verdict(busy.reads.count > 0)))
        record(
            GoalRow(
                measure: "  written = previewed = swept",
                figure: Format.agreement(count, previewed, swept),
                goal: "all agree", verdict: Verdict(previewed == count && swept == count)))
    }
}
