import CacheCore
import CacheDeckTestSupport
import ForeignCaches
import Foundation
import Testing

/// Files built from the published schemas: recognised by their tables, paged exactly, what a
/// format does not record reported as unknown, hostile content bounded, nothing written.
@Suite struct ForeignCacheTests {
    let fixtures: SchemaFixtures
    let now: Int64 = 1_790_000_000_000

    init() throws { fixtures = try SchemaFixtures() }

    @Test func eachFormatIsRecognisedByItsTablesNotItsName() throws {
        defer { fixtures.remove() }
        let found = try [
            fixtures.solidCache(), fixtures.laravel(), fixtures.urlCache(), fixtures.entityCache(),
        ].map { try ForeignCache.open(path: $0) }
        #expect(found.map(\.kind) == [.solidCache, .laravel, .urlCache, .entityCache])
        #expect(try found.map { try $0.namespaceNames() } == [["entries"], ["cache", "locks"], ["responses"], ["sets", "themes"]])
        let plain = fixtures.path("cache.sqlite")
        try executeSQL("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)", on: plain)
        #expect(try ForeignCache.recognise(path: plain) == nil)
        #expect(throws: ForeignCacheError.self) { try ForeignCache.open(path: plain) }
    }

    @Test(arguments: [EntrySortField.key, .size, .created, .expires], [false, true])
    func pagesVisitEveryEntryOnceInOrder(field: EntrySortField, descending: Bool) throws {
        defer { fixtures.remove() }
        let cache = try ForeignCache.open(path: try fixtures.entityCache())
        var query = ForeignQuery(namespace: "sets", sort: EntrySort(field, descending: descending), limit: 7)
        var rows: [ForeignEntry] = []
        repeat {
            let page = try cache.entries(query, now: now)
            rows += page.rows
            query.after = try page.next.map { try ForeignCursor(token: $0.token) }
        } while query.after != nil
        #expect(rows.count == 125)
        #expect(Set(rows.map(\.id)).count == 125)
        func value(_ entry: ForeignEntry) -> String {
            switch field {
            case .key: entry.key
            case .size: String(format: "%012lld", entry.size)
            case .created: String(format: "%020lld", entry.createdAt ?? -1)
            default: entry.expiresAt.map { String(format: "%020lld", $0) } ?? "~never"
            }
        }
        let values = rows.map(value)
        #expect(values == (descending ? values.sorted(by: >) : values.sorted()))
    }

    @Test func whatAFormatDoesNotRecordIsUnknownNotZero() throws {
        defer { fixtures.remove() }
        let cache = try ForeignCache.open(path: try fixtures.solidCache(count: 3))
        let overview = try cache.overview(now: now)
        #expect(overview.expired == nil && overview.namespaces[0].expired == nil)
        #expect(overview.entries == 3 && overview.bytes == 141 + 142 + 143)
        let rows = try cache.entries(ForeignQuery(namespace: "entries", sort: EntrySort(.created)), now: now).rows
        #expect(rows.map(\.key) == ["views/3", "views/2", "views/1"])
        #expect(rows.allSatisfy { $0.expiresAt == nil && $0.lastAccessAt == nil && $0.hits == nil })
        #expect(rows.first?.createdAt == now - 180_000)
        #expect(throws: ForeignCacheError.self) {
            try cache.entries(ForeignQuery(namespace: "entries", filter: EntryFilter(parsing: "expired")), now: now)
        }
        let ages = try cache.timeline(namespace: nil, now: now)
        #expect(ages.kind == .age && ages.buckets[1].entries == 3)
        let detail = try #require(try cache.entry(rows[0].id))
        #expect(detail.kind == .rubyMarshal)
        guard case .hexDump = detail.value else { Issue.record("a Marshal value must be shown as bytes"); return }
    }

    /// SQLite's `length` counts a text's characters: sizes count its UTF-8 bytes.
    @Test func sizesCountBytesNotCharacters() throws {
        defer { fixtures.remove() }
        let path = fixtures.path("utf8")
        try executeSQL(
            ForeignSchemas.laravel + """
                INSERT INTO cache VALUES ('ключ', 's:6:"données";', \(now / 1000 + 60)), ('k', CAST('ab' AS BLOB), 0);
                """, on: path)
        let cache = try ForeignCache.open(path: path)
        #expect(try cache.overview(now: now).bytes == (8 + 15) + (1 + 2))
        let rows = try cache.entries(ForeignQuery(namespace: "cache", sort: EntrySort(.key)), now: now).rows
        #expect(rows.map(\.key) == ["k", "ключ"] && rows.map(\.size) == [1 + 2, 8 + 15])
        let big = try cache.entries(
            ForeignQuery(namespace: "cache", filter: EntryFilter(parsing: "size>20")), now: now
        ).rows
        #expect(big.map(\.key) == ["ключ"])
    }

    @Test func expiryFiltersCountsAndTimelineAgree() throws {
        defer { fixtures.remove() }
        let cache = try ForeignCache.open(path: try fixtures.laravel(now: 1_790_000_000))
        let overview = try cache.overview(now: now)
        #expect(overview.entries == 3 && overview.expired == 1)
        let expired = try cache.entries(
            ForeignQuery(namespace: "cache", filter: EntryFilter(parsing: "expired")), now: now)
        #expect(expired.rows.map(\.key) == ["laravel_cache_count"])
        let timeline = try cache.timeline(namespace: "cache", now: now)
        #expect(timeline.buckets.map(\.entries) == [1, 0, 0, 0, 1, 0, 0, 0])
        #expect(timeline.hourly[0] == 0 && timeline.hourly[1] == 1)
        let user = try #require(try cache.find(namespace: "cache", key: "laravel_cache_user:1"))
        let detail = try #require(try cache.entry(user))
        #expect(detail.kind == .phpSerialized)
        #expect(detail.value == .json("a:1:{s:4:\"name\";s:3:\"Ann\";}", isTruncated: false))
    }

    @Test func sideFilesCountAndAMissingOneIsSaid() throws {
        defer { fixtures.remove() }
        let path = try fixtures.urlCache(onDisk: 5000)
        let cache = try ForeignCache.open(path: path)
        let rows = try cache.entries(ForeignQuery(namespace: "responses"), now: now).rows
        #expect(rows.map(\.size) == [28 + 18, 29 + 5000])
        let json = try #require(try cache.entry(rows[0].id))
        #expect(json.kind == .json && json.value == .json("{\n  \"a\": [\n    true\n  ],\n  \"b\": 1\n}", isTruncated: false))
        #expect(rows[0].createdAt == 1_793_527_200_000)
        try FileManager.default.removeItem(atPath: fixtures.path("fsCachedData/6B1F3A0E-PHOTO"))
        let photo = try #require(try cache.entry(rows[1].id))
        #expect(photo.kind == .missing && photo.valueBytes == nil)
    }

    @Test func hostileRowsAreBoundedNotTrusted() throws {
        defer { fixtures.remove() }
        let path = try fixtures.entityCache(count: 2)
        try executeSQL(
            """
            INSERT INTO entity_cache VALUES ('sets', 'evil' || char(27) || '[2J', zeroblob(3000000), 'not a time', 1e300);
            INSERT INTO entity_cache VALUES ('sets', x'ff00fe', x'80', -1e300, -5);
            INSERT INTO entity_cache VALUES ('../../x', 'k', '{}', 0, NULL);
            """, on: path)
        let cache = try ForeignCache.open(path: path)
        let rows = try cache.entries(ForeignQuery(namespace: "sets", sort: EntrySort(.expires)), now: now).rows
        #expect(rows.count == 3)
        let evil = try #require(rows.first { $0.key.hasPrefix("evil") })
        #expect(evil.createdAt == nil && evil.expiresAt == Int64.max)
        #expect(rows.contains { $0.key == "\\xff\u{0}\\xfe" || $0.key.hasPrefix("\\xff") })
        let detail = try #require(try cache.entry(evil.id))
        #expect(detail.valueBytes == 3_000_000)
        guard case .hexDump(let lines, let isTruncated) = detail.value else {
            Issue.record("zero bytes are not text"); return
        }
        #expect(isTruncated && lines.count <= 256)
        _ = try cache.timeline(namespace: nil, now: now)
        #expect(try cache.namespaceNames().contains("../../x"))
        // A key that is not text is deleted by the spelling listings print.
        let binary = try #require(rows.first { $0.key.hasPrefix("\\xff") })
        #expect(try cache.preview(.keys([binary.key]), namespace: "sets", now: now).entries == 1)
    }

    @Test func readingAWALFileWritesNothing() throws {
        defer { fixtures.remove() }
        let path = try fixtures.laravel(journal: "WAL")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let cache = try ForeignCache.open(path: path)
        _ = try cache.overview(now: now)
        let row = try #require(try cache.entries(ForeignQuery(namespace: "cache"), now: now).rows.first)
        _ = try cache.entry(row.id)
        _ = try cache.timeline(namespace: nil, now: now)
        for suffix in ["-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(suffix) was created")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test(arguments: [false, true])
    func pagesCrossRowsWithoutAWriteTime(descending: Bool) throws {
        defer { fixtures.remove() }
        let path = fixtures.path("nulls")
        try executeSQL(
            """
            CREATE TABLE entity_cache (table_name TEXT, primary_key TEXT, data BLOB, created_at DOUBLE, expires_at DOUBLE);
            INSERT INTO entity_cache VALUES ('t', 'a', '1', NULL, NULL), ('t', 'b', '2', 5, NULL), ('t', 'c', '3', NULL, NULL),
                ('t', 'd', '4', 3, NULL), ('t', 'e', '5', NULL, NULL);
            """, on: path)
        let cache = try ForeignCache.open(path: path)
        var query = ForeignQuery(namespace: "t", sort: EntrySort(.created, descending: descending), limit: 2)
        var keys: [String] = []
        repeat {
            let page = try cache.entries(query, now: now)
            keys += page.rows.map(\.key)
            query.after = page.next
        } while query.after != nil
        #expect(keys == (descending ? ["b", "d", "e", "c", "a"] : ["a", "c", "e", "d", "b"]))
    }

    @Test func undoRefusesAFileMadeAnewAtTheSamePath() throws {
        defer { fixtures.remove() }
        let path = try fixtures.solidCache(count: 3)
        let cache = try ForeignCache.open(path: path)
        let action = try cache.run(cache.preview(.keys(["views/1"]), namespace: "entries", now: now), now: now)
        #expect(action.removed == 1)
        try FileManager.default.moveItem(atPath: path, toPath: path + ".old")
        _ = try fixtures.solidCache(count: 2)
        try executeSQL("DELETE FROM solid_cache_entries WHERE key = 'views/1'", on: path)
        let error = #expect(throws: ForeignCacheError.self) { try cache.undo(action: action.actionID, now: now) }
        #expect(error?.description.contains("made anew") == true)
        let keys = try cache.entries(ForeignQuery(namespace: "entries"), now: now).rows.map(\.key)
        #expect(keys == ["views/2"])
        #expect(try cache.actions().first?.undoneAt == nil)
    }

    @Test func aCursorThatWasNotHandedOutIsRefused() {
        for token in ["", "f1.", "f1.x.AQ", "f1.3.BQ", "zz.1.AQ", "f1.1.AXg"] {
            #expect(throws: ForeignCacheError.self) { try ForeignCursor(token: token) }
        }
    }
}
