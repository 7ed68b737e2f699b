import CacheDeckTestSupport
import Foundation

/// Cache files built from each library's published schema (Rails Solid Cache's migration,
/// Laravel's `cache` migration, URLCache's `Cache.db`, the LEGO client's `entity_cache`), in
/// a folder of their own, named so their names say nothing about their format.
struct SchemaFixtures {
    let folder: String

    init() throws {
        folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("foreign-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// A Solid Cache file with `count` Marshal values, one a minute apart before `now` (seconds).
    func solidCache(_ name: String = "production.bin", count: Int = 3, now: Int = 1_790_000_000) throws -> String {
        let path = path(name)
        try executeSQL(
            ForeignSchemas.solidCache + """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
                INSERT INTO solid_cache_entries (key, value, created_at, key_hash, byte_size)
                SELECT 'views/' || i, x'0408' || randomblob(10), datetime(\(now) - i * 60, 'unixepoch'), i, 140 + i FROM n;
                """, on: path)
        return path
    }

    /// A Laravel file: PHP-serialised values expiring in an hour, one expired, one lock.
    func laravel(_ name: String = "data", now: Int = 1_790_000_000, journal: String = "DELETE") throws -> String {
        let path = path(name)
        try executeSQL(
            "PRAGMA journal_mode = \(journal);" + ForeignSchemas.laravel + """
                INSERT INTO cache VALUES ('laravel_cache_user:1', 'a:1:{s:4:"name";s:3:"Ann";}', \(now + 3600));
                INSERT INTO cache VALUES ('laravel_cache_count', 'i:42;', \(now - 10));
                INSERT INTO cache_locks VALUES ('laravel_cache_lock', 'owner-1', \(now + 30));
                """, on: path)
        return path
    }

    /// A URLCache `Cache.db`: one inline JSON body and one in `fsCachedData/` (`onDisk` bytes).
    func urlCache(onDisk: Int = 5000, writeSideFile: Bool = true) throws -> String {
        let path = path("Cache.db")
        try executeSQL(
            ForeignSchemas.urlCache + """
                INSERT INTO cfurl_cache_response (entry_ID, request_key, time_stamp)
                VALUES (1, 'https://example.com/api.json', '2026-11-01 10:00:00'),
                       (2, 'https://example.com/photo.jpg', '2026-11-02 10:00:00');
                INSERT INTO cfurl_cache_receiver_data VALUES (1, 0, CAST('{"b":1,"a":[true]}' AS BLOB)),
                       (2, 1, CAST('6B1F3A0E-PHOTO' AS BLOB));
                """, on: path)
        if writeSideFile {
            try FileManager.default.createDirectory(atPath: self.path("fsCachedData"), withIntermediateDirectories: true)
            FileManager.default.createFile(
                atPath: self.path("fsCachedData/6B1F3A0E-PHOTO"), contents: Data(repeating: 0xFF, count: onDisk))
        }
        return path
    }

    /// An entity_cache file with `count` rows in tables `sets` and `themes` (JSON data, sizes and
    /// times varying; every fifth never expires).
    func entityCache(_ name: String = "lego.store", count: Int = 250, now: Double = 1_790_000_000) throws -> String {
        let path = path(name)
        try executeSQL(
            ForeignSchemas.entityCache + """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
                INSERT INTO entity_cache
                SELECT CASE i % 2 WHEN 0 THEN 'sets' ELSE 'themes' END, printf('%05d', (i * 7919) % 100000),
                '{"id":' || i || ',"name":"' || substr('xxxxxxxxxxxxxxxxxxxx', 1, i % 17) || '"}',
                \(now) - i * 13 % 500, CASE WHEN i % 5 = 0 THEN NULL ELSE \(now) + (i * 31 % 700) - 200 END FROM n;
                """, on: path)
        return path
    }
}
