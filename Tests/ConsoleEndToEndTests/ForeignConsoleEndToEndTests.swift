import CacheDeckTestSupport
import Foundation
import Testing

/// `cachedeck FILE` on caches other libraries wrote, in a real terminal: one per family
/// (python-diskcache through the library when PyPI is reachable; Rails Solid Cache and
/// Laravel from their published schemas).
@Suite(.enabled(if: Tmux.executable != nil, "tmux is not installed"), .serialized)
struct ForeignConsoleEndToEndTests {
    let folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("foreign-e2e-\(UUID().uuidString.prefix(8))")

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    private func open(_ path: String) throws -> Tmux {
        let tmux = try Tmux(columns: 120, rows: 32)
        try tmux.type("\(ConsoleEndToEndTests.binary) \(path); echo exit=$?", enter: true)
        return tmux
    }

    @Test func solidCacheShowsAgesAndMarshalAsBytes() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/cache.db"
        try executeSQL(
            """
            CREATE TABLE "solid_cache_entries" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "key" blob NOT NULL,
            "value" blob NOT NULL, "created_at" datetime(6) NOT NULL, "key_hash" integer NOT NULL, "byte_size" integer NOT NULL);
            INSERT INTO solid_cache_entries (key, value, created_at, key_hash, byte_size)
            VALUES ('views/home', x'04085b0669', datetime('now', '-2 hours'), 1, 180);
            """, on: path)
        let tmux = try open(path)
        try tmux.waitFor("Rails Solid Cache, read-only")
        try tmux.waitFor("Apps  – (this format records none)")
        // Bytes are counted on a thread of their own and arrive without a key press.
        try tmux.waitFor("1 entries (180 B)")
        try tmux.keys("Enter")
        try tmux.waitFor("entries · 1 entries")
        try tmux.waitFor("views/home")
        try tmux.keys("Enter")
        try tmux.waitFor("Value · Ruby Marshal · hex dump")
        try tmux.keys("Escape", "2")
        try tmux.waitFor("Ages of entries (no expiry is recorded)")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }

    /// A Laravel database cache at `path` (its migration's tables) holding `rows` (SQL values).
    static func laravel(_ path: String, rows: String) throws {
        try executeSQL(
            """
            CREATE TABLE "cache" ("key" varchar not null, "value" text not null, "expiration" integer not null,
            primary key ("key"));
            CREATE TABLE "cache_locks" ("key" varchar not null, "owner" varchar not null, "expiration" integer not null,
            primary key ("key"));
            INSERT INTO cache VALUES \(rows);
            """, on: path)
    }

    @Test func laravelShowsExpiryAndPHPValuesAsText() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/database.sqlite"
        try Self.laravel(
            path,
            rows: """
                ('laravel_cache_user', 's:3:"Ann";', unixepoch() + 7200), ('laravel_cache_old', 'i:1;', unixepoch() - 5)
                """)
        let tmux = try open(path)
        try tmux.waitFor("Laravel database cache, read-only")
        try tmux.waitFor("Namespaces (2)")
        try tmux.keys("Enter")
        try tmux.waitFor("laravel_cache_user")
        try tmux.waitFor("expired")
        try tmux.keys("j", "Enter")
        try tmux.waitFor("Value · PHP serialize")
        try tmux.waitFor("s:3:\"Ann\";")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    }

    @Test(.enabled(if: PythonLibraries.isAvailable, "python3 with venv and PyPI are unavailable"))
    func diskCacheFolderOpensWithPickledValuesAsBytes() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = folder + "/dc"
        try PythonLibraries.script(
            "import diskcache\nc = diskcache.Cache('\(cache)')\nc.set('user:1', {'name': 'Ann'}, expire=600)\nc.close()")
        let tmux = try open(cache)
        try tmux.waitFor("python-diskcache, read-only")
        try tmux.keys("Enter")
        try tmux.waitFor("user:1")
        try tmux.keys("Enter")
        try tmux.waitFor("Value · Python pickle · hex dump")
        try tmux.keys("Escape", "2")
        try tmux.waitFor("Expiry of cache")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
        #expect(!FileManager.default.fileExists(atPath: cache + "/cache.db-wal"))
    }
}

extension ForeignConsoleEndToEndTests {
    @Test func actionsNeedWriteAndUndoPutsRowsBack() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/database.sqlite"
        try Self.laravel(
            path,
            rows: """
                ('a_live', 'i:1;', unixepoch() + 7200), ('b_old', 'i:2;', unixepoch() - 5),
                ('c_live', 'i:3;', unixepoch() + 60)
                """)
        let readOnly = try open(path)
        try readOnly.waitFor("read-only (--write allows actions)")
        try readOnly.keys("q")
        try readOnly.waitFor("exit=0")

        let tmux = try Tmux(columns: 120, rows: 32)
        try tmux.type("\(ConsoleEndToEndTests.binary) \(path) --write; echo exit=$?", enter: true)
        try tmux.waitFor("removed entries go to")
        try tmux.keys("Enter")
        try tmux.waitFor("cache · 3 entries")
        try tmux.keys("w")
        try tmux.waitFor("Proceed? [y/N]")
        try tmux.keys("y")
        try tmux.waitFor("removed 1 entry")
        try tmux.waitFor("cache · 2 entries")
        try tmux.keys("Space", "d")
        try tmux.waitFor("Proceed? [y/N]")
        try tmux.keys("y")
        try tmux.waitFor("cache · 1 entries")
        try tmux.keys("u")
        try tmux.waitFor("Restored 1 entry")
        try tmux.waitFor("cache · 2 entries")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
        #expect(FileManager.default.fileExists(atPath: path + ".cachedeck-trash"))
    }
}
