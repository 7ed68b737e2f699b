import CacheDeckTestSupport
import Foundation
import Testing

/// `cachedeck FILE` on caches other libraries wrote, in a real terminal: one per family
/// (python-diskcache, requests-cache and Django through the libraries when PyPI is reachable;
/// Rails Solid Cache, Laravel, Apple URLCache and entity_cache from their published schemas).
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
            ForeignSchemas.solidCache + """
            INSERT INTO solid_cache_entries (key, value, created_at, key_hash, byte_size)
            VALUES ('views/home', x'04085b0669', datetime('now', '-2 hours'), 1, 180);
            """, on: path)
        let tmux = try open(path)
        try tmux.waitFor("Rails Solid Cache, read-only")
        let overview = try tmux.waitFor("Apps  – (this format records none)")
        #expect(!overview.contains("live app"), "the header claims no count of apps the format does not record")
        // Bytes are counted on a thread of their own and arrive without a key press.
        try tmux.waitFor("1 entry (180 B)")
        try tmux.keys("Enter")
        try tmux.waitFor("entries · 1 entry")
        try tmux.waitFor("views/home")
        try tmux.keys("Enter")
        try tmux.waitFor("Value · Ruby Marshal · hex dump")
        // Its value is shown, never read whole: no pager, no copy of it (the key copies).
        try tmux.keys("v")
        try tmux.waitFor("values are shown, never read whole")
        try tmux.keys("Escape", "2")
        try tmux.waitFor("Ages of entries (no expiry is recorded)")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }

    /// A Laravel database cache at `path` (its migration's tables) holding `rows` (SQL values).
    static func laravel(_ path: String, rows: String) throws {
        try executeSQL(ForeignSchemas.laravel + "INSERT INTO cache VALUES \(rows);", on: path)
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
    func diskCacheFolderOpensWithPickledValuesRead() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = folder + "/dc"
        try PythonLibraries.script(
            "import diskcache\nc = diskcache.Cache('\(cache)')\nc.set('user:1', {'name': 'Ann'}, expire=600)\n"
                + "c.set(('page', 2), 'p')\nc.close()")
        let tmux = try open(cache)
        try tmux.waitFor("python-diskcache, read-only")
        try tmux.keys("Enter")
        try tmux.waitFor("('page', 2)")  // a pickled key reads as Python writes it
        try tmux.waitFor("user:1")
        try tmux.keys("Enter")
        try tmux.waitFor("Value · Python pickle · lines")
        try tmux.waitFor("{'name': 'Ann'}")
        try tmux.keys("Escape", "2")
        try tmux.waitFor("Expiry of cache")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
        #expect(!FileManager.default.fileExists(atPath: cache + "/cache.db-wal"))
    }

    @Test func urlCacheShowsResponsesByAgeAndTheirBodies() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/Cache.db"
        try executeSQL(
            ForeignSchemas.urlCache + """
            INSERT INTO cfurl_cache_response (entry_ID, request_key, time_stamp)
            VALUES (1, 'https://example.com/api.json', datetime('now', '-3 hours'));
            INSERT INTO cfurl_cache_receiver_data VALUES (1, 0, CAST('{"b":1,"a":[true]}' AS BLOB));
            """, on: path)
        let tmux = try open(path)
        try tmux.waitFor("Apple URLCache, read-only")
        try tmux.keys("Enter")
        try tmux.waitFor("https://example.com/api.json")
        try tmux.keys("Enter")
        try tmux.waitFor("Value · JSON")
        try tmux.waitFor("\"a\": [")
        try tmux.keys("Escape", "2")
        try tmux.waitFor("Ages of responses (no expiry is recorded)")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }

    @Test func entityCacheTablesAreNamespaces() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/lego.store"
        try executeSQL(
            ForeignSchemas.entityCache + """
            INSERT INTO entity_cache VALUES
              ('sets', '10294-1', '{"name":"Titanic"}', unixepoch() - 60, unixepoch() + 3600),
              ('themes', '721', '{"name":"Icons"}', unixepoch() - 60, NULL);
            """, on: path)
        let tmux = try open(path)
        try tmux.waitFor("entity_cache, read-only")
        try tmux.waitFor("Namespaces (2)")
        try tmux.keys("Enter")
        try tmux.waitFor("10294-1")
        try tmux.keys("Enter")
        try tmux.waitFor("Titanic")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }

    @Test(.enabled(if: PythonLibraries.isAvailable, "python3 with venv and PyPI are unavailable"))
    func requestsCacheResponsesOpenWithPickledValuesRead() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/http_cache.sqlite"
        try PythonLibraries.script(
            """
            import datetime
            from requests_cache.backends.sqlite import SQLiteCache
            from requests_cache.models import CachedResponse
            b = SQLiteCache('\(path)')
            later = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=2)
            b.save_response(CachedResponse(url='http://example.com/a', status_code=200, expires=later), cache_key='k1')
            """)
        let tmux = try open(path)
        try tmux.waitFor("requests-cache, read-only")
        try tmux.waitFor("redirects")
        try tmux.keys("j", "Enter")  // responses, after redirects
        try tmux.waitFor("responses · 1 entry")
        try tmux.waitFor("k1")
        try tmux.keys("Enter")
        try tmux.waitFor("pickle")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }

    @Test(.enabled(if: PythonLibraries.isAvailable, "python3 with venv and PyPI are unavailable"))
    func djangoKeyPrefixesAreNamespaces() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/db.sqlite3"
        try PythonLibraries.script(
            """
            import django
            from django.conf import settings
            settings.configure(USE_TZ=True,
                DATABASES={'default': {'ENGINE': 'django.db.backends.sqlite3', 'NAME': '\(path)'}},
                CACHES={'default': {'BACKEND': 'django.core.cache.backends.db.DatabaseCache',
                                    'LOCATION': 'my_cache', 'KEY_PREFIX': 'shop', 'VERSION': 3}})
            django.setup()
            from django.core.management import call_command
            call_command('createcachetable')
            from django.core.cache import cache
            cache.set('cart', {'items': 2}, 600)
            """)
        let tmux = try open(path)
        try tmux.waitFor("Django database cache, read-only")
        try tmux.waitFor("shop")
        try tmux.keys("Enter")
        try tmux.waitFor("shop:3:cart")
        // Its value, a base64 pickle, reads as the dict it holds (never loaded: see
        // PickleTests); `x` shows its bytes.
        try tmux.keys("Enter")
        try tmux.waitFor("{'items': 2}")
        try tmux.keys("x")
        try tmux.waitFor("hex dump")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
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
        try tmux.waitFor("Remove them? [y/N]")
        try tmux.keys("y")
        try tmux.waitFor("removed 1 entry")
        try tmux.waitFor("cache · 2 entries")
        try tmux.keys("Space", "d")
        try tmux.waitFor("Remove them? [y/N]")
        try tmux.keys("y")
        try tmux.waitFor("cache · 1 entry")
        try tmux.keys("u")
        try tmux.waitFor("Restored 1 entry")
        try tmux.waitFor("cache · 2 entries")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
        #expect(FileManager.default.fileExists(atPath: path + ".cachedeck-trash"))
    }
}
