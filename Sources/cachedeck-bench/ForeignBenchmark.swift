import ArgumentParser
import CacheConsole
import CacheCore
import ForeignCaches
import Foundation

/// `cachedeck-bench foreign`: the console's first screen (open, Overview, the first page of
/// entries) and a page deep in the entries on a python-diskcache file, against the same on a
/// CacheCore file with as many entries, measured in the same run.
struct ForeignBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "foreign",
        abstract: "First screen and a page on a python-diskcache file against a CacheCore file of as many entries.")

    @Option(help: "Entries in each file (default 1000000).") var entries = 1_000_000
    @Option(help: "Value bytes per entry (default 100).") var valueBytes = 100
    @Option(help: "Timed runs of each measure (default 5; the median is reported).") var repeats = 5

    func validate() throws {
        if entries < 1000 { throw ValidationError("--entries must be at least 1000.") }
        if repeats < 1 { throw ValidationError("--repeats must be at least 1.") }
    }

    func run() throws {
        let directory = try TemporaryDirectory(prefix: "cachedeck-bench-foreign")
        defer { directory.remove() }
        let folder = directory.file("diskcache")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        print("Building a python-diskcache file (its schema, triggers and settings) with \(entries) entries…")
        try DiskCacheBenchFile(path: folder + "/cache.db", entries: entries, valueBytes: valueBytes).build()
        let core = directory.file("core.sqlite")
        try InspectorBenchmark(path: core, entries: entries, valueBytes: valueBytes, repeats: 1).prepareFile()

        let foreign = try measure(namespace: "cache") {
            ForeignDataSource(cache: try ForeignCache.open(path: folder), allowsActions: false)
        }
        let baseline = try measure(namespace: "bench") { try StoreDataSource.open(path: core, readOnly: true) }
        print("")
        print("foreign caches, \(entries) entries, median of \(repeats):")
        for (name, value, base) in [
            ("first screen (open, overview, page 1)", foreign.firstScreen, baseline.firstScreen),
            ("a page of 50 at entry ~25,000", foreign.page, baseline.page),
        ] {
            print(
                "  \(name.padding(toLength: 40, withPad: " ", startingAt: 0)) diskcache \(String(format: "%8.2f", value)) ms"
                    + "   CacheCore \(String(format: "%8.2f", base)) ms   ratio \(String(format: "%.2f", value / base))×")
        }
    }

    /// Median milliseconds of the first screen and of one page 500 pages in (key order).
    private func measure(namespace: String, _ open: () throws -> any ConsoleDataSource) throws
        -> (firstScreen: Double, page: Double)
    {
        let clock = ContinuousClock()
        var first: [Double] = []
        var pages: [Double] = []
        for _ in 0..<repeats {
            let started = clock.now
            let source = try open()
            let overview = try source.overview()
            let request = EntriesRequest(namespace: namespace, sort: EntrySort(.key), filter: "", start: nil, limit: 50)
            var page = try source.entries(request)
            first.append((clock.now - started).milliseconds)
            guard overview.file.entries >= entries, page.rows.count == 50 else {
                throw BenchError("\(source.location) shows \(overview.file.entries) entries, \(page.rows.count) rows")
            }
            for _ in 0..<500 {
                page = try source.entries(
                    EntriesRequest(namespace: namespace, sort: EntrySort(.key), filter: "", start: page.next, limit: 50))
            }
            let pageStarted = clock.now
            page = try source.entries(
                EntriesRequest(namespace: namespace, sort: EntrySort(.key), filter: "", start: page.next, limit: 50))
            pages.append((clock.now - pageStarted).milliseconds)
            guard page.rows.count == 50 else { throw BenchError("page 502 of \(source.location) is short") }
        }
        return (first.sorted()[first.count / 2], pages.sorted()[pages.count / 2])
    }
}

/// A python-diskcache `cache.db` as the library creates it (tables, indexes, triggers and
/// settings, read from a file diskcache 5.6 wrote), filled with inline values in SQL.
struct DiskCacheBenchFile {
    let path: String
    let entries: Int
    let valueBytes: Int

    func build() throws {
        let connection = try RawConnection(path: path, create: true)
        try connection.execute(
            """
            PRAGMA synchronous = OFF;
            CREATE TABLE Settings ( key TEXT NOT NULL UNIQUE, value);
            CREATE TABLE Cache ( rowid INTEGER PRIMARY KEY, key BLOB, raw INTEGER, store_time REAL, expire_time REAL,
            access_time REAL, access_count INTEGER DEFAULT 0, tag BLOB, size INTEGER DEFAULT 0, mode INTEGER DEFAULT 0,
            filename TEXT, value BLOB);
            CREATE UNIQUE INDEX Cache_key_raw ON Cache(key, raw);
            CREATE INDEX Cache_expire_time ON Cache (expire_time);
            CREATE INDEX Cache_store_time ON Cache (store_time);
            INSERT INTO Settings VALUES ('count', 0), ('size', 0), ('hits', 0), ('misses', 0),
                ('eviction_policy', 'least-recently-stored'), ('disk_min_file_size', 32768);
            CREATE TRIGGER Settings_count_insert AFTER INSERT ON Cache FOR EACH ROW BEGIN
                UPDATE Settings SET value = value + 1 WHERE key = "count"; END;
            CREATE TRIGGER Settings_count_delete AFTER DELETE ON Cache FOR EACH ROW BEGIN
                UPDATE Settings SET value = value - 1 WHERE key = "count"; END;
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(entries))
            INSERT INTO Cache (key, raw, store_time, expire_time, access_time, access_count, tag, size, mode, value)
            SELECT 'key:' || printf('%08d', (i * 7919) % \(entries)), 1, unixepoch() - i % 86400,
                CASE WHEN i % 10 = 0 THEN NULL ELSE unixepoch() + (i % 7200) - 200 END, unixepoch() - i % 86400, 0,
                NULL, 0, 4, randomblob(\(valueBytes)) FROM n;
            COMMIT;
            PRAGMA wal_checkpoint(TRUNCATE);
            """)
    }
}

extension Duration {
    /// Milliseconds with their fraction.
    fileprivate var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
