import CacheCore
import Foundation

/// Something at a path that is not a usable cache file, as users meet them.
public enum BadFile: String, CaseIterable, Sendable, CustomStringConvertible {
    /// A text file.
    case notADatabase
    /// A SQLite database with another application's tables (and `user_version` 7, as apps
    /// that version their schema have).
    case otherApplication
    /// python-diskcache 5.x's `cache.db`: its schema, settings and a few rows.
    case pythonDiskcache
    /// A CacheDeck cache whose format version is 99.
    case newerFormat
    /// A CacheDeck cache of about 3,000 entries and an even number of pages, cut to half its
    /// size: the cut lands on a page boundary, so what is wrong is only the missing half.
    case truncated
    /// A file of zero bytes.
    case emptyFile
    /// Nothing at the path.
    case missing
    /// A folder at the path.
    case directory
    /// A valid cache (see ``make(in:)``) with mode 0444: read by a user who may not write it.
    case readOnly
    /// A valid cache with mode 0000.
    case permissionDenied

    /// The case's name.
    public var description: String { rawValue }

    /// The file's name: python-diskcache always calls its database `cache.db`.
    public var fileName: String { self == .pythonDiskcache ? "cache.db" : "bad.sqlite" }

    /// Whether only a user that permissions apply to sees the problem (see ``Unprivileged``).
    public var needsUnprivilegedUser: Bool { self == .readOnly || self == .permissionDenied }

    /// Makes it in `folder`; returns its path. The valid caches hold namespace `colors` with
    /// keys 1, 2, 3 (never expiring) and nothing in a `-wal`.
    public func make(in folder: String) throws -> String {
        let path = (folder as NSString).appendingPathComponent(fileName)
        switch self {
        case .notADatabase:
            try Data("just some text, not SQLite\n".utf8).write(to: URL(fileURLWithPath: path))
        case .otherApplication:
            try executeSQL(
                """
                CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5);
                PRAGMA user_version = 7;
                """, on: path)
        case .pythonDiskcache:
            try executeSQL(Self.diskcacheSchema + Self.diskcacheRows, on: path)
        case .newerFormat:
            try Self.makeCache(at: path, keys: 1...3, padded: false)
            try executeSQL("PRAGMA user_version = 99", on: path)
        case .truncated:
            try Self.makeCache(at: path, keys: 1...3_000, padded: true)
            var next = 3_001
            while try Self.pageCount(of: path) % 2 != 0 {
                try Self.makeCache(at: path, keys: next...next, padded: true)
                next += 1
            }
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            guard size > 100_000, truncate(path, off_t(size / 2)) == 0 else {
                throw SupportFailure("cannot truncate \(path) (\(size) bytes)")
            }
        case .emptyFile:
            try Data().write(to: URL(fileURLWithPath: path))
        case .missing:
            break
        case .directory:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case .readOnly, .permissionDenied:
            try Self.makeCache(at: path, keys: 1...3, padded: false)
            try Unprivileged.restrict(path, mode: self == .readOnly ? 0o444 : 0o000)
        }
        return path
    }

    /// Sets `keys` in `colors` of the cache at `path` (created if missing) to strings (red,
    /// green, blue in turn; 400 more bytes each when `padded`), closed and checkpointed so its
    /// bytes stay put.
    private static func makeCache(at path: String, keys: ClosedRange<Int>, padded: Bool) throws {
        var options = StoreOptions()
        options.statistics.telemetryInterval = nil
        options.statistics.metrics = .off
        do {
            let store = try CacheStore(path: path, options: options)
            let colors = try store.cache(
                "colors", key: Int.self, value: String.self, policy: NamespacePolicy(expiration: .never))
            let names = ["red", "green", "blue"]
            for key in keys {
                let name = names[(key - 1) % names.count]
                try colors.set(padded ? name + String(repeating: "-", count: 400) : name, for: key)
            }
            try store.close()
        }
        try executeSQL("PRAGMA wal_checkpoint(TRUNCATE)", on: path)
    }

    /// The page count a SQLite file's header records (bytes 28–31, big-endian).
    private static func pageCount(of path: String) throws -> Int {
        guard let header = FileManager.default.contents(atPath: path)?.prefix(32), header.count == 32 else {
            throw SupportFailure("\(path) has no SQLite header")
        }
        return header.suffix(4).reduce(0) { $0 << 8 | Int($1) }
    }

    /// python-diskcache 5.x's tables, indexes and triggers (default settings: eviction policy
    /// least-recently-stored, no tag index, auto_vacuum FULL, WAL).
    static let diskcacheSchema = """
        PRAGMA auto_vacuum = 1;
        PRAGMA journal_mode = WAL;
        CREATE TABLE IF NOT EXISTS Settings (key TEXT NOT NULL UNIQUE, value);
        CREATE TABLE IF NOT EXISTS Cache (
            rowid INTEGER PRIMARY KEY, key BLOB, raw INTEGER, store_time REAL, expire_time REAL,
            access_time REAL, access_count INTEGER DEFAULT 0, tag BLOB, size INTEGER DEFAULT 0,
            mode INTEGER DEFAULT 0, filename TEXT, value BLOB);
        CREATE UNIQUE INDEX IF NOT EXISTS Cache_key_raw ON Cache (key, raw);
        CREATE INDEX IF NOT EXISTS Cache_expire_time ON Cache (expire_time);
        CREATE INDEX IF NOT EXISTS Cache_store_time ON Cache (store_time);
        CREATE TRIGGER IF NOT EXISTS Settings_count_insert AFTER INSERT ON Cache FOR EACH ROW BEGIN
            UPDATE Settings SET value = value + 1 WHERE key = 'count'; END;
        CREATE TRIGGER IF NOT EXISTS Settings_count_delete AFTER DELETE ON Cache FOR EACH ROW BEGIN
            UPDATE Settings SET value = value - 1 WHERE key = 'count'; END;
        CREATE TRIGGER IF NOT EXISTS Settings_size_insert AFTER INSERT ON Cache FOR EACH ROW BEGIN
            UPDATE Settings SET value = value + NEW.size WHERE key = 'size'; END;
        CREATE TRIGGER IF NOT EXISTS Settings_size_update AFTER UPDATE ON Cache FOR EACH ROW BEGIN
            UPDATE Settings SET value = value + NEW.size - OLD.size WHERE key = 'size'; END;
        CREATE TRIGGER IF NOT EXISTS Settings_size_delete AFTER DELETE ON Cache FOR EACH ROW BEGIN
            UPDATE Settings SET value = value - OLD.size WHERE key = 'size'; END;

        """

    /// Its default settings, and three raw string values as `cache[key] = value` stores them.
    static let diskcacheRows = """
        INSERT INTO Settings VALUES ('statistics', 0), ('tag_index', 0),
            ('eviction_policy', 'least-recently-stored'), ('size_limit', 1073741824), ('cull_limit', 10),
            ('sqlite_auto_vacuum', 1), ('sqlite_cache_size', 8192), ('sqlite_journal_mode', 'wal'),
            ('sqlite_mmap_size', 67108864), ('sqlite_synchronous', 1), ('disk_min_file_size', 32768),
            ('disk_pickle_protocol', 5), ('count', 0), ('size', 0), ('hits', 0), ('misses', 0);
        INSERT INTO Cache (key, raw, store_time, expire_time, access_time, access_count, tag, size, mode, filename, value)
        VALUES ('user:1', 1, 1700000000.5, NULL, 1700000000.5, 0, NULL, 0, 1, NULL, 'alice'),
            ('user:2', 1, 1700000001.5, 1700003601.5, 1700000001.5, 0, NULL, 0, 1, NULL, 'bob'),
            ('user:3', 1, 1700000002.5, NULL, 1700000002.5, 0, NULL, 0, 1, NULL, 'carol');

        """
}
