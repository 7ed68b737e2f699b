import CacheCore
import Foundation

/// The `format` rows, on one file built through the public API: previews, sorts and counts
/// first (checked against the plan and a reference walk), then each purge and its undo, the
/// clear and its undo, and last the sweep under an app's reads and writes.
///
/// Three stores share the file, as processes would: ``app`` writes and reads through
/// ``Cache``; ``console`` (a writable inspection store, as the console opens one) runs the
/// Inspector and the Admin actions; ``reader`` (read-only, so its reads leave no access
/// records) checks what reads return.
final class FormatBenchmark {
    let settings: FormatSettings
    let plan: FormatFilePlan
    let app: CacheStore
    let console: CacheStore
    let reader: CacheStore
    private(set) var report = GoalReport()

    init(settings: FormatSettings, path: String) throws {
        self.settings = settings
        plan = FormatFilePlan(entries: settings.entries)
        app = try CacheStore(path: path)
        console = try CacheStore(path: path, options: .inspection(writable: true))
        reader = try CacheStore(path: path, options: .inspection())
    }

    /// Runs every row and returns the table.
    func run() throws -> GoalReport {
        defer {
            try? reader.close()
            try? console.close()
            try? app.close()
        }
        try buildFile()
        try recordReads()
        progress("Walking every entry in key order for the reference…")
        let ((rows, mismatches), walkTime) = try timed { try referenceWalk() }
        note("reference walk: \(rows.count) rows in \(Format.seconds(walkTime)) s")
        record(
            GoalRow(
                measure: "reference walk (Inspector, key order) vs what was written",
                figure: "\(Format.grouped(rows.count)) rows, \(mismatches) mismatched",
                goal: "0 mismatched", verdict: Verdict(mismatches == 0)))
        try checkCounts(when: "after the build")
        try measurePreviews()
        try measureSorts(rows)
        try measurePurges()
        try measureClear()
        try checkCounts(when: "after every undo")
        try measureSweep()
        return report
    }

    /// The result of `body` and how long it took, in nanoseconds.
    func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = ContinuousClock.now
        let result = try body()
        return (result, (ContinuousClock.now - start).nanoseconds)
    }

    /// Runs `body` once, then ``FormatSettings/repeats`` more times; returns its first result,
    /// the first call's time and the median of the repeats.
    func repeated<T>(_ body: () throws -> T) rethrows -> (result: T, first: Double, median: Double) {
        let (result, first) = try timed(body)
        let times = try (0..<settings.repeats).map { _ in try timed(body).1 }
        return (result, first, Timing.median(times))
    }

    /// `median 12.3 ms (first 45.6 ms)`.
    func describe(first: Double, median: Double) -> String {
        String(format: "%.1f ms (first %.1f ms)", median / 1e6, first / 1e6)
    }

    /// Adds `row` to the report and shows progress.
    func record(_ row: GoalRow) {
        report.add(row)
        progress("  \(row.measure): \(row.figure) [\(row.verdict.rawValue)]")
    }

    func note(_ text: String) {
        report.note(text)
        progress("  \(text)")
    }
}
