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

    static let solidCacheSchema = """
        CREATE TABLE "solid_cache_entries" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "key" blob(1024) NOT NULL,
        "value" blob(536870912) NOT NULL, "created_at" datetime(6) NOT NULL, "key_hash" integer(8) NOT NULL,
        "byte_size" integer(4) NOT NULL);
        CREATE UNIQUE INDEX "index_solid_cache_entries_on_key_hash" ON "solid_cache_entries" ("key_hash");
        CREATE INDEX "index_solid_cache_entries_on_byte_size" ON "solid_cache_entries" ("byte_size");
        """

    static let laravelSchema = """
        CREATE TABLE "cache" ("key" varchar not null, "value" text not null, "expiration" integer not null,
        primary key ("key"));
        CREATE TABLE "cache_locks" ("key" varchar not null, "owner" varchar not null, "expiration" integer not null,
        primary key ("key"));
        """

    static let urlCacheSchema = """
        CREATE TABLE cfurl_cache_response(entry_ID INTEGER PRIMARY KEY AUTOINCREMENT UNIQUE, version INTEGER,
        hash_value INTEGER, storage_policy INTEGER, request_key TEXT UNIQUE,
        time_stamp NOT NULL DEFAULT CURRENT_TIMESTAMP, partition TEXT);
        CREATE TABLE cfurl_cache_blob_data(entry_ID INTEGER PRIMARY KEY, response_object BLOB, request_object BLOB,
        proto_props BLOB, user_info BLOB);
        CREATE TABLE cfurl_cache_receiver_data(entry_ID INTEGER PRIMARY KEY, isDataOnFS INTEGER, receiver_data BLOB);
        """

    static let entityCacheSchema = """
        CREATE TABLE entity_cache (table_name TEXT NOT NULL, primary_key TEXT NOT NULL, data BLOB NOT NULL,
        created_at DOUBLE NOT NULL, expires_at DOUBLE, PRIMARY KEY (table_name, primary_key));
        """

    /// A Solid Cache file with `count` Marshal values, one a minute apart before `now` (seconds).
    func solidCache(_ name: String = "production.bin", count: Int = 3, now: Int = 1_790_000_000) throws -> String {
        let path = path(name)
        try executeSQL(
            Self.solidCacheSchema + """
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
            "PRAGMA journal_mode = \(journal);" + Self.laravelSchema + """
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
            Self.urlCacheSchema + """
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
            Self.entityCacheSchema + """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
                INSERT INTO entity_cache
                SELECT CASE i % 2 WHEN 0 THEN 'sets' ELSE 'themes' END, printf('%05d', (i * 7919) % 100000),
                '{"id":' || i || ',"name":"' || substr('xxxxxxxxxxxxxxxxxxxx', 1, i % 17) || '"}',
                \(now) - i * 13 % 500, CASE WHEN i % 5 = 0 THEN NULL ELSE \(now) + (i * 31 % 700) - 200 END FROM n;
                """, on: path)
        return path
    }
}
