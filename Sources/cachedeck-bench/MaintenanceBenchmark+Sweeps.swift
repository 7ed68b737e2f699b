import CacheCore
import Foundation
import Synchronization

extension MaintenanceBenchmark {
    /// Rows: CacheCore's adaptive sweep at several per-batch time budgets against the floor's
    /// DELETE loop (``FloorBaseline``, its own file) in fixed batches of 1000; notes: the
    /// floor's rate at larger fixed batches. Every configuration runs once per round, in turn, and
    /// the median round counts, so machine noise hits them alike.
    func measureSweepTuning() throws {
        let path = directory.file("tuning.sqlite")
        let count = settings.tuningEntries
        let past = Date(timeIntervalSinceNow: -3600)
        let setup = try CacheStore(path: path)
        defer { try? setup.close() }
        let floor = try FloorBaseline(path: directory.file("tuning-floor.sqlite"))
        var generator = SplitMix64(seed: 0x7_F100)
        let values = Workload.values(count: 1024, size: settings.valueSize, generator: &generator)
        var rawTimes: [Int: [Double]] = [:]
        var adaptiveTimes: [Int: [Double]] = [:]
        var batchSizes: [Int: [Int]] = [:]
        for round in 1...settings.tuningRounds {
            progress("Sweep tuning, round \(round) of \(settings.tuningRounds): \(count) expired entries each…")
            for size in settings.fixedBatchSizes {
                try floor.fill(
                    namespace: "raw-\(size)", count: count, expires: Int64(past.timeIntervalSince1970 * 1000),
                    key: { Workload.key("x", $0) }, value: { values[$0 % values.count] })
                try floor.checkpoint()
                var swept = 0
                rawTimes[size, default: []].append(
                    try Timing.nanosecondsPerOperation(count) {
                        swept = try floor.sweepExpired(namespace: "raw-\(size)", batchSize: size)
                    })
                guard swept == count else { throw BenchError("the floor swept \(swept) of \(count)") }
            }
            for budget in settings.batchBudgets {
                try fill("adaptive-\(budget)", in: setup, path: path, prefix: "x", count: count, expiresAt: past)
                let store = try CacheStore(path: path)  // a fresh store learns its batch size from scratch
                defer { try? store.close() }
                let options = MaintenanceOptions(
                    tasks: [.sweepExpired], sweepBudget: .seconds(3600), batchBudget: .milliseconds(budget))
                var pass = MaintenanceReport()
                adaptiveTimes[budget, default: []].append(
                    try Timing.nanosecondsPerOperation(count) { pass = try store.runMaintenance(options) })
                guard pass.expiredRemoved == count else {
                    throw BenchError("swept \(pass.expiredRemoved) of \(count)")
                }
                batchSizes[budget, default: []].append(pass.sweepBatchSize)
            }
        }
        let baseline = Timing.median(rawTimes[1000] ?? [])
        for budget in settings.batchBudgets {
            record(
                ReportRow(
                    operation: "sweep, \(budget) ms batches (vs floor, 1000), per entry",
                    cacheCore: Timing.median(adaptiveTimes[budget] ?? []), baseline: baseline, budget: .informational))
        }
        note(
            "floor DELETE loop, fixed batches (median of \(settings.tuningRounds)): "
                + settings.fixedBatchSizes.map { size in
                    "\(size): \(Format.rate(Timing.median(rawTimes[size] ?? []))) entries/s"
                }.joined(separator: ", "))
        note(
            "adaptive sweep (median of \(settings.tuningRounds)): "
                + settings.batchBudgets.map { budget in
                    "\(budget) ms: \(Format.rate(Timing.median(adaptiveTimes[budget] ?? []))) entries/s, "
                        + "batches of \(batchSizes[budget]?.sorted().map(String.init).joined(separator: "/") ?? "?")"
                }.joined(separator: "; "))
    }

    /// Rows: CacheCore's `sweepExpired()` of `--entries` expired entries with nothing else
    /// running, against #26's 2 s per million and against the floor's DELETE loop (batches
    /// of 1000) over as many entries in its own file; notes: each side's process CPU time
    /// (user + system, CacheCore's checkpointer thread included), which the load of other
    /// processes on the machine moves less than the wall time.
    func measureSweepAlone() throws {
        let count = settings.sweepEntries
        let path = directory.file("alone.sqlite")
        let past = Date(timeIntervalSinceNow: -3600)
        progress("Filling \(count) expired entries on each side for the sweep alone…")
        let store = try CacheStore(path: path)
        defer { try? store.close() }
        try fill("expired", in: store, path: path, prefix: "x", count: count, expiresAt: past)
        let floor = try FloorBaseline(path: directory.file("alone-floor.sqlite"))
        var generator = SplitMix64(seed: 0xA_1011)
        let values = Workload.values(count: 1024, size: settings.valueSize, generator: &generator)
        try floor.fill(
            namespace: "expired", count: count, expires: Int64(past.timeIntervalSince1970 * 1000),
            key: { Workload.key("x", $0) }, value: { values[$0 % values.count] })
        try floor.checkpoint()

        var swept = (cacheCore: 0, floor: 0)
        var cpu = processCPUMicroseconds()
        let cacheCore = try Timing.nanosecondsPerOperation(1) { swept.cacheCore = try store.sweepExpired() }
        let cacheCoreCPU = processCPUMicroseconds() - cpu
        cpu = processCPUMicroseconds()
        let baseline = try Timing.nanosecondsPerOperation(1) {
            swept.floor = try floor.sweepExpired(namespace: "expired", batchSize: 1000)
        }
        let floorCPU = processCPUMicroseconds() - cpu
        guard swept == (count, count) else {
            throw BenchError("swept \(swept.cacheCore) (CacheCore) and \(swept.floor) (floor) of \(count)")
        }
        let budget = 2e9 * Double(count) / 1e6
        record(
            ReportRow(
                operation: "sweep \(Format.count(count)) expired alone, total (vs floor)", cacheCore: cacheCore,
                baseline: baseline, budget: .absolute(nanoseconds: budget, label: "≤ 2 s per 1M")))
        let seconds = { (nanoseconds: Double) in String(format: "%.2f s", nanoseconds / 1e9) }
        note(
            "sweep of \(Format.count(count)) alone: CacheCore \(seconds(cacheCore)) "
                + "(\(Format.rate(cacheCore / Double(count))) entries/s, CPU \(seconds(cacheCoreCPU * 1e3))), "
                + "floor \(seconds(baseline)) (\(Format.rate(baseline / Double(count))) entries/s, "
                + "CPU \(seconds(floorCPU * 1e3)))")
    }

    /// Rows: a sweep of `--entries` expired entries against the 2 s per million budget, and
    /// the p99 latency of a reader (tight loop) and a paced writer during the sweep against
    /// the same threads without one.
    func measureSweepLatency() throws {
        let path = directory.file("latency.sqlite")
        let count = settings.sweepEntries
        let store = try CacheStore(path: path)
        defer { try? store.close() }
        progress("Filling \(settings.liveEntries) live and \(count) expired entries…")
        try fill(
            "live", in: store, path: path, prefix: "l", count: settings.liveEntries,
            expiresAt: Date(timeIntervalSinceNow: 86_400))
        try fill(
            "expired", in: store, path: path, prefix: "x", count: count, expiresAt: Date(timeIntervalSinceNow: -3600))
        let live = try store.dataCache("live", key: String.self)
        let writes = try store.dataCache("writes", key: String.self)
        let keys = Workload.keys("l", count: settings.liveEntries)

        let load = AppLoad(live: live, writes: writes, keys: keys, walPath: path + "-wal")
        progress("Timing reads and writes for \(settings.quietSeconds) s without a sweep…")
        let quiet = try load.run(seed: generator.next()) { Thread.sleep(forTimeInterval: settings.quietSeconds) }
        progress("Sweeping \(count) expired entries under the same reads and writes…")
        var swept = 0
        var sweepTime = 0.0
        let busy = try load.run(seed: generator.next()) {
            sweepTime = try Timing.nanosecondsPerOperation(1) { swept = try store.sweepExpired() }
        }
        guard swept == count else { throw BenchError("swept \(swept) of \(count)") }

        let budget = 2e9 * Double(count) / 1e6
        record(
            ReportRow(
                operation: "sweep \(Format.count(count)) expired, total (vs budget)", cacheCore: sweepTime,
                baseline: budget, budget: .atMost(1, label: "≤ 2 s per 1M")))
        record(
            ReportRow(
                operation: "get p99 during the sweep (vs none)", cacheCore: busy.reads.percentile(0.99),
                baseline: quiet.reads.percentile(0.99), budget: .informational))
        record(
            ReportRow(
                operation: "set p99 during the sweep (vs none)", cacheCore: busy.writes.percentile(0.99),
                baseline: quiet.writes.percentile(0.99), budget: .informational))
        note(
            "sweep of \(Format.count(count)): \(Format.seconds(sweepTime)) s, \(Format.rate(sweepTime / Double(count))) "
                + "entries/s (budget: 1M in 2 s); WAL peak \(busy.walPeakBytes >> 20) MiB "
                + "(\(quiet.walPeakBytes >> 20) MiB without the sweep)")
        for (name, sample) in [("get", \AppLoad.Result.reads), ("set", \AppLoad.Result.writes)] {
            note(
                "\(name) latency without / during the sweep: "
                    + "p50 \(Format.microseconds(quiet[keyPath: sample].percentile(0.5))) / "
                    + "\(Format.microseconds(busy[keyPath: sample].percentile(0.5))) µs, "
                    + "p99 \(Format.microseconds(quiet[keyPath: sample].percentile(0.99))) / "
                    + "\(Format.microseconds(busy[keyPath: sample].percentile(0.99))) µs, "
                    + "max \(Format.microseconds(quiet[keyPath: sample].maximum)) / "
                    + "\(Format.microseconds(busy[keyPath: sample].maximum)) µs "
                    + "(\(quiet[keyPath: sample].count) / \(busy[keyPath: sample].count) ops)")
        }
    }
}

/// An app's load on its own threads while the caller works: one thread reading random live
/// keys in a tight loop, one writing a fresh key every 10 ms; each operation's latency is
/// kept, and the WAL's size is sampled every 10 ms.
struct AppLoad {
    struct Result {
        var reads = LatencySample()
        var writes = LatencySample()
        var walPeakBytes = 0
    }

    let live: Cache<String, Data>
    let writes: Cache<String, Data>
    let keys: [String]
    let walPath: String

    /// Starts the threads, runs `work`, stops them and returns what they measured.
    func run(seed: UInt64, _ work: () throws -> Void) throws -> Result {
        let running = Atomic(true)
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let result = Mutex(Result())
        let failure = Mutex<String?>(nil)
        let (live, writes, keys, walPath) = (live, writes, keys, walPath)
        Thread {
            defer { finished.signal() }
            var generator = SplitMix64(seed: seed)
            var sample = LatencySample()
            started.signal()
            while running.load(ordering: .relaxed) {
                let key = keys[Int(generator.next() % UInt64(keys.count))]
                let begin = ContinuousClock.now
                do {
                    guard try live.get(key) != nil else { throw BenchError("live key \(key) missing") }
                } catch {
                    failure.withLock { $0 = "\(error)" }
                    break
                }
                sample.add((ContinuousClock.now - begin).nanoseconds)
            }
            result.withLock { $0.reads = sample }
        }.start()
        Thread {
            defer { finished.signal() }
            var sample = LatencySample()
            var index = 0
            let value = Data(count: 100)
            started.signal()
            while running.load(ordering: .relaxed) {
                let begin = ContinuousClock.now
                do {
                    try writes.set(value, for: Workload.key("w\(seed % 1000)-", index))
                } catch {
                    failure.withLock { $0 = "\(error)" }
                    break
                }
                sample.add((ContinuousClock.now - begin).nanoseconds)
                index += 1
                Thread.sleep(forTimeInterval: 0.01)
            }
            result.withLock { $0.writes = sample }
        }.start()
        Thread {
            defer { finished.signal() }
            var peak = 0
            started.signal()
            while running.load(ordering: .relaxed) {
                var info = stat()
                if stat(walPath, &info) == 0 { peak = max(peak, Int(info.st_size)) }
                Thread.sleep(forTimeInterval: 0.01)
            }
            result.withLock { $0.walPeakBytes = peak }
        }.start()
        for _ in 0..<3 { started.wait() }
        let worked = Swift.Result { try work() }
        running.store(false, ordering: .relaxed)
        for _ in 0..<3 { finished.wait() }
        try worked.get()
        if let message = failure.withLock({ $0 }) { throw BenchError("app load failed: \(message)") }
        return result.withLock { $0 }
    }
}
