import CacheCore
import Foundation

/// The `core` rows. Rows 1–6 run on one cache file: CacheCore creates the schema, and the
/// raw baseline works on the same `entries` table, indexes and triggers, in namespaces that
/// CacheCore registered (so the counter triggers do the same work for both).
final class CoreBenchmark {
    let settings: CoreSettings
    let directory: TemporaryDirectory
    let store: CacheStore
    let raw: RawEntryBaseline
    /// A pool of distinct values; key number `i` gets `values[i % values.count]`.
    let values: [Data]
    var generator = SplitMix64(seed: 0xCAC4E_DEC4)
    private(set) var report = Report()

    init(settings: CoreSettings, directory: TemporaryDirectory) throws {
        self.settings = settings
        self.directory = directory
        let path = directory.file("core.sqlite")
        store = try CacheStore(path: path)
        raw = try RawEntryBaseline(path: path)
        values = Workload.values(count: 1024, size: settings.valueSize, generator: &generator)
    }

    /// Runs every row and returns the table.
    func run() throws -> Report {
        defer { try? store.close() }
        try registerNamespaces()
        try measureReads()
        try measureWrites()
        try measureSweep()
        try measureOpen()
        return report
    }

    // MARK: Helpers shared by the rows

    /// Registers every namespace up front, then fills a last one: each side's entries then
    /// sit inside the indexes on `(namespace_id, …)`. Otherwise the highest namespace id
    /// appends at the right edge of every index, which SQLite does measurably faster than
    /// inserting in the middle, and the side writing there would be favoured.
    private func registerNamespaces() throws {
        for name in ["reads", "json", "json-raw", "writes", "writes-raw", "sweep", "sweep-raw"] {
            _ = try store.dataCache(name, key: String.self)
        }
        try populate(try store.dataCache("tail", key: String.self), keys: Workload.keys("t", count: settings.batchSize))
    }

    /// The value stored under key number `index`.
    func value(_ index: Int) -> Data { values[index % values.count] }

    /// A raw-bytes handle on `namespace` and its row id, for the baseline.
    func namespace(_ name: String) throws -> (cache: Cache<String, Data>, id: Int64) {
        let cache = try store.dataCache(name, key: String.self)
        return (cache, try raw.namespaceID(name))
    }

    /// Writes `keys` through CacheCore in batches (untimed setup).
    func populate(_ cache: Cache<String, Data>, keys: [String], expiration: Expiration? = nil) throws {
        for start in stride(from: 0, to: keys.count, by: settings.batchSize) {
            let end = min(start + settings.batchSize, keys.count)
            try cache.set((start..<end).map { (key: keys[$0], value: value($0)) }, expiration: expiration)
        }
    }

    /// Writes pending access records and checkpoints the WAL, so the next row starts clean.
    func settle() throws {
        try store.flush()
        try raw.checkpoint()
    }

    /// Adds `row` to the report and shows progress.
    func record(_ row: ReportRow) {
        report.add(row)
        progress(
            "  \(row.operation): \(Format.nanoseconds(row.cacheCore)) vs \(Format.nanoseconds(row.baseline)) ns/op")
    }

    /// Prints `line` at once, even when stdout is a pipe (`fflush(nil)` flushes every stream).
    func progress(_ line: String) {
        print(line)
        fflush(nil)
    }

    func note(_ text: String) { report.note(text) }
}
