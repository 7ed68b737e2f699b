import CacheCore
import CacheDeckTestSupport
import ForeignCaches
import Foundation
import Testing

/// Files written by the real libraries (python-diskcache, requests-cache, Django from PyPI in
/// a virtual environment made once, see ``PythonLibraries``); skipped without python3 or
/// PyPI, unless CI=true.
@Suite(.enabled(if: PythonLibraries.isAvailable, "python3 with venv and PyPI are unavailable"), .serialized)
struct RealLibraryTests {
    let fixtures: SchemaFixtures
    var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    init() throws { fixtures = try SchemaFixtures() }

    @Test func diskCacheEntriesSideFilesAndPickledKeysAsTheLibraryWroteThem() throws {
        defer { fixtures.remove() }
        let folder = fixtures.path("dc")
        try PythonLibraries.script(
            """
            import diskcache
            c = diskcache.Cache(\(Self.literal(folder)), eviction_policy='least-recently-used')
            c.set('plain', 'hi'); c.set('big', b'x' * 40000, expire=3600, tag='t'); c.set(('tuple', 1), {'a': 1})
            c.set('soon', 1, expire=60); c.get('plain'); c.close()
            """)
        let cache = try ForeignCache.open(path: folder)
        #expect(cache.kind == .diskCache && cache.facts.lastAccess && !cache.facts.hits)
        // Two minutes on: `soon` has expired and is still there (diskcache culls lazily).
        let overview = try cache.overview(now: now + 120_000)
        #expect(overview.entries == 4 && overview.expired == 1)
        #expect((overview.bytes ?? 0) >= 40000)
        let rows = try cache.entries(ForeignQuery(namespace: "cache"), now: now).rows
        #expect(rows.count == 4)
        #expect(rows.contains { $0.key.hasPrefix("pickle:80") })
        let big = try #require(rows.first { $0.key == "big" })
        #expect(big.tag == "t" && big.size >= 40000 && big.expiresAt != nil)
        let detail = try #require(try cache.entry(big.id))
        #expect(detail.valueBytes == 40000 && detail.sideFile?.hasSuffix(".val") == true)
        let pickledKey = try #require(rows.first { $0.key.hasPrefix("pickle:") })
        #expect(pickledKey.label == "('tuple', 1)" && rows.filter { $0.label != nil }.count == 1)
        #expect(try cache.find(namespace: "cache", key: pickledKey.key) == pickledKey.id)
        let tuple = try #require(try cache.entry(pickledKey.id))
        #expect(tuple.kind == .pickle)
        guard case .json(let text, _) = tuple.value else { Issue.record("a pickle of data must be read"); return }
        #expect(text == "{'a': 1}")
        #expect(try cache.preview(.keys([pickledKey.key]), namespace: "cache", now: now).entries == 1)
        for suffix in ["-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: folder + "/cache.db" + suffix))
        }
    }

    @Test func fanoutCacheIsOneCacheWithANamespacePerShard() throws {
        defer { fixtures.remove() }
        let folder = fixtures.path("fan")
        try PythonLibraries.script(
            """
            import diskcache
            f = diskcache.FanoutCache(\(Self.literal(folder)), shards=4)
            for i in range(40): f.set('k%d' % i, i)
            f.close()
            """)
        let cache = try ForeignCache.open(path: folder)
        #expect(cache.kind == .fanoutCache)
        let overview = try cache.overview(now: now)
        #expect(overview.namespaces.map(\.name) == ["000", "001", "002", "003"] && overview.entries == 40)
    }

    @Test func requestsCacheResponsesAndRedirects() throws {
        defer { fixtures.remove() }
        let path = fixtures.path("http_cache.sqlite")
        try PythonLibraries.script(
            """
            import datetime
            from requests_cache.backends.sqlite import SQLiteCache
            from requests_cache.models import CachedResponse
            b = SQLiteCache(\(Self.literal(path)))
            later = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=2)
            b.save_response(CachedResponse(url='http://example.com/a', status_code=200, expires=later), cache_key='k1')
            b.save_response(CachedResponse(url='http://example.com/b', status_code=200), cache_key='k2')
            b.redirects['r1'] = 'k1'
            """)
        let cache = try ForeignCache.open(path: path)
        #expect(cache.kind == .requestsCache)
        let overview = try cache.overview(now: now)
        #expect(overview.namespaces.map(\.entries) == [2, 1])
        let responses = try cache.entries(ForeignQuery(namespace: "responses"), now: now).rows
        #expect(responses.map(\.key) == ["k1", "k2"])
        let detail = try #require(try cache.entry(responses[0].id))
        #expect(detail.kind == .pickle)
    }

    @Test func djangoPrefixesAreNamespacesAndVersionsAreShown() throws {
        defer { fixtures.remove() }
        let path = fixtures.path("db.sqlite3")
        try PythonLibraries.script(
            """
            import django
            from django.conf import settings
            settings.configure(USE_TZ=True,
                DATABASES={'default': {'ENGINE': 'django.db.backends.sqlite3', 'NAME': \(Self.literal(path))}},
                CACHES={'default': {'BACKEND': 'django.core.cache.backends.db.DatabaseCache',
                                    'LOCATION': 'my_cache', 'KEY_PREFIX': 'shop', 'VERSION': 3}})
            django.setup()
            from django.core.management import call_command
            call_command('createcachetable')
            from django.core.cache import cache
            cache.set('cart', {'items': 2}, 600); cache.set('forever', 'x', None)
            """)
        let cache = try ForeignCache.open(path: path)
        #expect(cache.kind == .django)
        #expect(try cache.namespaceNames() == ["shop"])
        let rows = try cache.entries(ForeignQuery(namespace: "shop"), now: now).rows
        #expect(rows.map(\.key) == ["shop:3:cart", "shop:3:forever"])
        let cart = try #require(try cache.entry(rows[0].id))
        #expect(cart.kind == .base64Pickle && cart.version == "3")
        let expiry = try #require(rows[0].expiresAt)
        #expect(abs(expiry - now - 600_000) < 60_000)
    }

    @Test func diskCacheDeleteAndUndoLeaveAFileTheLibraryReadsAsBefore() throws {
        defer { fixtures.remove() }
        let folder = fixtures.path("dc")
        let read = """
            import diskcache
            c = diskcache.Cache(\(Self.literal(folder)))
            print(sorted((k, len(c[k]) if isinstance(c[k], bytes) else c[k]) for k in c), len(c), c.volume() > 0, [str(w.message) for w in c.check()])
            c.close()
            """
        try PythonLibraries.script(
            """
            import diskcache
            c = diskcache.Cache(\(Self.literal(folder)))
            c.set('user:1', b'x' * 50000); c.set('user:2', 'Ann'); c.set('page:1', 7)
            c.close()
            """)
        let before = try PythonLibraries.script(read)
        let cache = try ForeignCache.open(path: folder)
        let preview = try cache.preview(.filter(EntryFilter(parsing: "prefix:user:")), namespace: "cache", now: now)
        #expect(preview.entries == 2 && preview.bytes >= 50000)
        let result = try cache.run(preview, now: now)
        #expect(result.removed == preview.entries && result.skipped == 0 && result.sideFilesMoved == 1)
        let after = try PythonLibraries.script(read)
        #expect(after.hasPrefix("[('page:1', 7)] 1 True []"), "diskcache reads \(after)")
        #expect(try cache.undo(action: result.actionID, now: now) == 2)
        #expect(try PythonLibraries.script(read) == before)
        #expect(before.hasSuffix("[]\n"), "diskcache's check() found problems: \(before)")
        #expect(throws: ForeignCacheError.self) { try cache.undo(action: result.actionID, now: now) }
    }

    @Test func requestsCacheDeleteTakesItsRedirectsAndUndoBringsThemBack() throws {
        defer { fixtures.remove() }
        let path = fixtures.path("http_cache.sqlite")
        let read = """
            from requests_cache.backends.sqlite import SQLiteCache
            b = SQLiteCache(\(Self.literal(path)))
            print(sorted(b.responses.keys()), sorted(b.redirects.keys()), [b.get_response(k).url for k in sorted(b.responses.keys())])
            """
        try PythonLibraries.script(
            """
            from requests_cache.backends.sqlite import SQLiteCache
            from requests_cache.models import CachedResponse
            b = SQLiteCache(\(Self.literal(path)))
            b.save_response(CachedResponse(url='http://example.com/a', status_code=200), cache_key='k1')
            b.save_response(CachedResponse(url='http://example.com/b', status_code=200), cache_key='k2')
            b.redirects['r1'] = 'k1'; b.redirects['r2'] = 'k1'; b.redirects['r3'] = 'k2'
            """)
        let before = try PythonLibraries.script(read)
        let cache = try ForeignCache.open(path: path)
        let preview = try cache.preview(.keys(["k1"]), namespace: "responses", now: now)
        #expect(preview.entries == 1 && preview.dependents == 2)
        let at = now
        let result = try cache.run(preview, now: at)
        #expect(result.removed == 1 && result.dependentsRemoved == 2)
        #expect(try PythonLibraries.script(read) == "['k2'] ['r3'] ['http://example.com/b']\n")
        #expect(try cache.undo(action: result.actionID, now: at) == 1)
        #expect(try PythonLibraries.script(read) == before)
        #expect(try cache.actions().first?.undoneAt == at)
    }

    /// `text` as a Python string literal.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
