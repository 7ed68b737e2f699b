import CacheCore
import Foundation

extension CoreBenchmark {
    /// Row: sweeping expired entries. CacheCore's whole-store `sweepExpired()` runs first,
    /// then the floor deletes the same entries with a plain DELETE loop of 1000 rows per
    /// autocommit statement.
    func measureSweep() throws {
        let count = settings.sweepEntries
        let keys = Workload.keys("x", count: count)
        progress("Expiring \(count) entries on each side for the sweep…")
        try populate("sweep", keys: keys, expiresAt: Date(timeIntervalSinceNow: -3600))
        var swept = 0
        let cacheCore = try Timing.nanosecondsPerOperation(count) { swept = try store.sweepExpired() }
        guard swept == count else { throw BenchError("CacheCore swept \(swept) of \(count) expired entries") }
        let baseline = try Timing.nanosecondsPerOperation(count) {
            swept = try floor.sweepExpired(namespace: "sweep", batchSize: settings.batchSize)
        }
        guard swept == count else { throw BenchError("the floor swept \(swept) of \(count) expired entries") }

        record(
            ReportRow(
                operation: "sweep \(Format.count(count)) expired, per entry", cacheCore: cacheCore, baseline: baseline,
                budget: .informational))
        note(
            "sweep: CacheCore \(Format.rate(cacheCore)) entries/s (\(Format.milliseconds(cacheCore * Double(count))) ms; "
                + "1M at this rate ≈ \(Format.seconds(cacheCore * 1e6)) s, budget 2 s), "
                + "floor \(Format.rate(baseline)) entries/s (\(Format.milliseconds(baseline * Double(count))) ms)")
        try settle()
    }

    /// Row: opening a store on a large file against a small one; a size-independent open
    /// gives a ratio near 1. The "baseline" column is the small file.
    func measureOpen() throws {
        let small = directory.file("open-small.sqlite")
        let large = directory.file("open-large.sqlite")
        progress(
            "Building the open-time files (\(settings.smallFileEntries) and \(settings.largeFileEntries) entries)…")
        try makeFile(small, entries: settings.smallFileEntries)
        try makeFile(large, entries: settings.largeFileEntries)

        let warmUps = 2
        var smallTimes: [Double] = []
        var largeTimes: [Double] = []
        for index in 0..<(warmUps + settings.opens) {
            let smallFirst = index.isMultiple(of: 2)
            let first = try openTime(smallFirst ? small : large)
            let second = try openTime(smallFirst ? large : small)
            guard index >= warmUps else { continue }
            smallTimes.append(smallFirst ? first : second)
            largeTimes.append(smallFirst ? second : first)
        }
        let smallMedian = Timing.median(smallTimes)
        let largeMedian = Timing.median(largeTimes)
        let smallName = Format.count(settings.smallFileEntries)
        let largeName = Format.count(settings.largeFileEntries)
        record(
            ReportRow(
                operation: "open \(largeName) vs \(smallName)-entry file", cacheCore: largeMedian,
                baseline: smallMedian,
                budget: .atMost(1.5, label: "size-independent (≤ 1.5×)")))
        note(
            "open (median of \(settings.opens)): \(smallName) entries \(Format.microseconds(smallMedian)) µs, "
                + "\(largeName) entries \(Format.microseconds(largeMedian)) µs")
    }

    /// Creates a cache file of `entries` entries in batched sets.
    private func makeFile(_ path: String, entries: Int) throws {
        let creator = try CacheStore(path: path)
        defer { try? creator.close() }
        let cache = try creator.dataCache("bench", key: String.self)
        for start in stride(from: 0, to: entries, by: settings.batchSize) {
            try cache.set(
                (start..<min(start + settings.batchSize, entries)).map {
                    (key: Workload.key("o", $0), value: value($0))
                })
        }
    }

    /// Nanoseconds to open a `CacheStore` on `path`; the store is closed afterwards, untimed.
    private func openTime(_ path: String) throws -> Double {
        var opened: CacheStore?
        let time = try Timing.nanosecondsPerOperation(1) { opened = try CacheStore(path: path) }
        try opened?.close()
        return time
    }
}
