import CacheCore
import Foundation

/// The `maintenance` rows: statistics on the read path, sweep batch sizing, and what a
/// sweep costs the app's reads and writes while it runs.
final class MaintenanceBenchmark {
    let settings: MaintenanceSettings
    let directory: TemporaryDirectory
    var generator = SplitMix64(seed: 0x5EED_57A7)
    private(set) var report = Report()

    init(settings: MaintenanceSettings, directory: TemporaryDirectory) {
        self.settings = settings
        self.directory = directory
    }

    /// Runs every row (or only the two sweeps of `--entries`) and returns the table.
    func run(sweepsOnly: Bool = false) throws -> Report {
        if !sweepsOnly {
            try measureStatisticsOverhead()
            try measureSweepTuning()
        }
        try measureSweepAlone()
        try measureSweepLatency()
        return report
    }

    /// Adds `row` to the report and shows progress.
    func record(_ row: ReportRow) {
        report.add(row)
        progress(row.progressLine)
    }

    func note(_ text: String) {
        report.note(text)
        progress("  \(text)")
    }

    /// Registers `namespace` in the file at `path` and fills it with `count` rows through the
    /// bulk filler, expiring at `expiresAt`.
    func fill(
        _ namespace: String, in store: CacheStore, path: String, prefix: String, count: Int, expiresAt: Date
    ) throws {
        _ = try store.dataCache(namespace, key: String.self)
        try BulkFiller(path: path).fill(
            namespace: namespace, prefix: prefix, count: count, valueSize: settings.valueSize,
            expiresAt: Int64(expiresAt.timeIntervalSince1970 * 1000))
    }
}
