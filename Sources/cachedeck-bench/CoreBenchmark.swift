import CacheCore
import Foundation

/// The `core` rows: CacheCore against the floor (``FloorBaseline``: raw SQLite on the least
/// table a cache needs, in a file of its own). Both files hold the same namespaces, keys and
/// values, written in the same order, and every row interleaves the two sides round by round.
final class CoreBenchmark {
    let settings: CoreSettings
    let directory: TemporaryDirectory
    let store: CacheStore
    let floor: FloorBaseline
    /// A pool of distinct values; key number `i` gets `values[i % values.count]`.
    let values: [Data]
    var generator = SplitMix64(seed: 0xCAC4E_DEC4)
    private(set) var report = Report()

    init(settings: CoreSettings, directory: TemporaryDirectory) throws {
        self.settings = settings
        self.directory = directory
        store = try CacheStore(path: directory.file("core.sqlite"))
        floor = try FloorBaseline(path: directory.file("floor.sqlite"))
        values = Workload.values(count: 1024, size: settings.valueSize, generator: &generator)
    }

    /// Runs every row and returns the table.
    func run() throws -> Report {
        defer { try? store.close() }
        try registerNamespaces()
        try measureReads()
        try measureWrites()
        try measureSweep()
        // Last of the file rows: its hybrid namespaces add rows that the floor's file lacks.
        try measureMemoryHits()
        try measureOpen()
        return report
    }

    // MARK: Helpers shared by the rows

    /// Registers every namespace up front, then fills a last one on both sides, so that each
    /// side's writes land inside its indexes rather than at their right edge (which SQLite
    /// does measurably faster, and would favour whichever side wrote there).
    private func registerNamespaces() throws {
        for name in ["reads", "json", "writes", "sweep"] { _ = try store.dataCache(name, key: String.self) }
        let keys = Workload.keys("t", count: settings.batchSize)
        try populate("zz-tail", keys: keys)
    }

    /// The value stored under key number `index`.
    func value(_ index: Int) -> Data { values[index % values.count] }

    /// Writes `keys` (with ``value(_:)``, or `payload` when given) into `namespace` on both
    /// sides in batches of ``CoreSettings/batchSize`` (untimed setup), then settles.
    @discardableResult
    func populate(
        _ namespace: String, keys: [String], expiresAt: Date? = nil, payload: ((Int) -> Data)? = nil
    ) throws -> Cache<String, Data> {
        let cache = try store.dataCache(namespace, key: String.self)
        let payload = payload ?? value
        for start in stride(from: 0, to: keys.count, by: settings.batchSize) {
            let end = min(start + settings.batchSize, keys.count)
            try cache.set(
                (start..<end).map { (key: keys[$0], value: payload($0)) }, expiration: expiresAt.map(Expiration.at))
        }
        try floor.fill(
            namespace: namespace, count: keys.count, batchSize: settings.batchSize,
            expires: expiresAt.map { Int64($0.timeIntervalSince1970 * 1000) }, key: { keys[$0] }, value: payload)
        try settle()
        return cache
    }

    /// Writes pending access records and checkpoints both WALs, so the next row starts clean.
    func settle() throws {
        try store.flush()
        try floor.checkpoint()
    }

    /// Adds `row` to the report and shows progress.
    func record(_ row: ReportRow) {
        report.add(row)
        progress(row.progressLine)
    }

    func note(_ text: String) { report.note(text) }
}
