import Foundation
import Testing

@testable import CacheCore

/// Keyset pagination: every order, both directions, many page sizes, ties everywhere, NULLs,
/// hostile keys, and a second namespace interleaved in the same table.
@Suite struct InspectorPaginationTests {
    /// 60 entries in namespace `n` (id order interleaved with 30 in `other`), with few distinct
    /// sizes, times and hit counts so that every order has long runs of ties.
    static func fixture() throws -> TestStore {
        let fixture = try TestStore()
        let n = try fixture.store.dataCache("n", key: String.self)
        let other = try fixture.store.dataCache("other", key: String.self)
        let hostile = ["", "a", "A", "é", "日本", "\u{1B}[31mred", "line\nbreak", "\u{202E}rtl", "tab\there", "\0nul"]
        for index in 0..<60 {
            let key = index < hostile.count ? hostile[index] : "k\(index % 7)-\(index)"
            let expiration: Expiration =
                switch index % 4 {
                case 0: .never
                case 1: .after(.seconds(60))
                case 2: .after(.seconds(Int64(index % 3)))
                default: .after(.seconds(3600))
                }
            try n.set(Data(repeating: UInt8(index), count: index % 3), for: key, expiration: expiration)
            if index.isMultiple(of: 2) { try other.set(Data([1]), for: "o\(index)") }
            if index.isMultiple(of: 20) { fixture.clock.advance(by: .milliseconds(1)) }
        }
        // Ties and NULLs the API would not produce on its own: equal hits, access times and
        // creation times in runs, expiring rows without a stale-until and never-expiring rows
        // with one.
        try fixture.execute(
            """
            UPDATE entries SET hits = id % 3, accessed_at = 1000 + id % 4, created_at = 2000 + id % 5;
            UPDATE entries SET stale_until = NULL WHERE id % 7 < 3 AND expires_at IS NOT NULL;
            UPDATE entries SET stale_until = 7 + id % 2 WHERE id % 7 >= 4 AND expires_at IS NULL;
            UPDATE entries SET key = CAST(x'ff61c3' AS TEXT) WHERE key = 'k3-24';
            UPDATE entries SET key = CAST(x'ff61' AS TEXT) WHERE key = 'k4-25';
            UPDATE entries SET sort_value = id % 6 - 2 WHERE id % 5 < 3;
            """)
        return fixture
    }

    /// The order each sort must produce, written independently of the inspector's SQL.
    static func expectedOrder(_ sort: EntrySort) -> String {
        let direction = sort.descending ? " DESC" : ""
        return switch sort.field {
        case .key: "CAST(key AS BLOB)\(direction), id\(direction)"
        case .size: "size\(direction), id\(direction)"
        case .created: "created_at\(direction), id\(direction)"
        case .lastAccess: "accessed_at\(direction), id\(direction)"
        case .hits: "hits\(direction), id\(direction)"
        case .expires:
            sort.descending
                ? "expires_at IS NOT NULL, expires_at DESC, stale_until DESC, size DESC, id DESC"
                : "expires_at IS NULL, expires_at, stale_until, size, id"
        case .sortValue:
            "sort_value IS NULL, sort_value\(direction), "
                + "CASE WHEN sort_value IS NULL THEN CAST(key AS BLOB) END\(direction), id\(direction)"
        }
    }

    static let allSorts = EntrySortField.allCases.flatMap { [EntrySort($0), EntrySort($0, descending: true)] }

    @Test(arguments: allSorts)
    func everyPageSizeVisitsEveryRowOnceInOrder(sort: EntrySort) throws {
        let fixture = try Self.fixture()
        let expected = try fixture.column(
            "SELECT id FROM entries WHERE namespace_id = (SELECT id FROM namespaces WHERE name = 'n') ORDER BY "
                + Self.expectedOrder(sort))
        #expect(expected.count == 60)
        let inspector = fixture.store.inspector
        for limit in [1, 2, 7, 59, 60, 61, 500] {
            let pages = try inspector.allPages(EntryQuery(namespace: "n", sort: sort, limit: limit))
            #expect(pages.flatMap { $0.rows.map(\.id) } == expected, "limit \(limit)")
            #expect(pages.allSatisfy { $0.rows.count <= limit && !$0.reachedScanLimit })
            #expect(pages.dropLast().allSatisfy { $0.rows.count == limit }, "only the last page is short")
            #expect(pages.flatMap(\.rows).allSatisfy { $0.namespace == "n" })
        }
    }

    @Test(arguments: allSorts)
    func filteredPagesStoppedByTheScanLimitStillVisitEveryMatchOnce(sort: EntrySort) throws {
        let fixture = try Self.fixture()
        let expected = try fixture.column(
            """
            SELECT id FROM entries WHERE namespace_id = (SELECT id FROM namespaces WHERE name = 'n')
            AND hits > 0 AND instr(key, 'k') > 0 ORDER BY \(Self.expectedOrder(sort))
            """)
        #expect(expected.count > 10)
        let query = EntryQuery(
            namespace: "n", sort: sort, filter: try EntryFilter(parsing: "hits>0 k"), limit: 4,
            scanLimit: sort.field.hasIndex ? 5 : nil)
        let pages = try fixture.store.inspector.allPages(query)
        #expect(pages.flatMap { $0.rows.map(\.id) } == expected)
        if sort.field.hasIndex {
            #expect(pages.contains { $0.reachedScanLimit && $0.rows.count < 4 }, "some pages end at the scan limit")
            #expect(pages.allSatisfy { $0.examinedRows <= 5 })
        }
    }

    @Test(arguments: [EntrySortField.size, .created, .hits], [false, true])
    func aRankingBeyondTheScanLimitIsStillTheWholeNamespaceInExactOrder(field: EntrySortField, descending: Bool) throws
    {
        let fixture = try Self.fixture()
        let sort = EntrySort(field, descending: descending)
        let pages = try fixture.store.inspector.allPages(
            EntryQuery(namespace: "n", sort: sort, limit: 6, scanLimit: 40))
        let expected = try fixture.column(
            """
            SELECT id FROM entries WHERE namespace_id = (SELECT id FROM namespaces WHERE name = 'n')
            ORDER BY \(Self.expectedOrder(sort))
            """)
        #expect(pages.flatMap { $0.rows.map(\.id) } == expected)
        #expect(expected.count == 60)
    }

    @Test func aFilterThatReadsRowsCountsEachAsEightIndexSteps() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.dataCache("n", key: String.self)
        try cache.set((0..<1000).map { (key: String(format: "k%04d", $0), value: Data()) })
        let inspector = fixture.store.inspector
        let byHits = try inspector.entries(
            EntryQuery(namespace: "n", filter: try EntryFilter(parsing: "hits>5"), scanLimit: 800))
        #expect(byHits.rows.isEmpty && byHits.reachedScanLimit && byHits.examinedRows == 100)
        let byKey = try inspector.entries(
            EntryQuery(namespace: "n", filter: try EntryFilter(parsing: "nothing"), scanLimit: 800))
        #expect(byKey.rows.isEmpty && byKey.reachedScanLimit && byKey.examinedRows == 800)
    }

    @Test func aSmallNamespaceIsRankedExactlyThroughItsIndex() throws {
        let fixture = try TestStore()
        let big = try fixture.store.dataCache("big", key: Int.self)
        try big.set((0..<300).map { (key: $0, value: Data(count: $0 % 10)) })
        let small = try fixture.store.dataCache("small", key: Int.self)
        try small.set((0..<5).map { (key: $0, value: Data(count: 5 - $0)) })
        let page = try fixture.store.inspector.entries(
            EntryQuery(namespace: "small", sort: EntrySort(.size, descending: true), scanLimit: 100))
        #expect(page.examinedRows == 5)
        #expect(page.rows.map(\.key) == ["0", "1", "2", "3", "4"])
    }

    @Test func aCursorKeepsWorkingWhileAnotherProcessWrites() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.dataCache("n", key: String.self)
        try cache.set((0..<20).map { (key: String(format: "k%02d", $0), value: Data()) })
        let inspector = try fixture.inspectionStore().inspector
        let first = try inspector.entries(EntryQuery(namespace: "n", limit: 10))
        #expect(first.rows.last?.key == "k09")
        try cache.remove("k10")
        try cache.set(Data(), for: "k09a")
        try cache.set(Data(), for: "k00a")
        let second = try inspector.entries(EntryQuery(namespace: "n", limit: 10, after: first.next))
        #expect(second.rows.map(\.key) == ["k09a"] + (11..<20).map { String(format: "k%02d", $0) })
    }

    @Test func keysThatAreNotUTF8AreShownEscapedAndFoundByThatText() throws {
        let fixture = try Self.fixture()
        let inspector = fixture.store.inspector
        let rows = try inspector.allPages(EntryQuery(namespace: "n", limit: 1000)).flatMap(\.rows)
        let broken = try #require(rows.first { $0.key == "\\xffa\\xc3" })
        let detail = try #require(try inspector.entry(id: broken.id))
        #expect(detail.entry.key == broken.key)
        #expect(try inspector.entry(namespace: "n", key: broken.key)?.entry.id == broken.id)
        #expect(try inspector.entry(namespace: "n", key: "\\xffa")?.entry.key == "\\xffa")
        #expect(rows.contains { $0.key == "\u{1B}[31mred" } && rows.contains { $0.key == "\0nul" })
    }

    @Test func aCursorOfAnotherQueryOrAnUnknownNamespaceIsRefused() throws {
        let fixture = try Self.fixture()
        let inspector = fixture.store.inspector
        let page = try inspector.entries(EntryQuery(namespace: "n", limit: 3))
        #expect(throws: InspectorError.cursorMismatch) {
            try inspector.entries(EntryQuery(namespace: "n", sort: EntrySort(.size), after: page.next))
        }
        #expect(throws: InspectorError.cursorMismatch) {
            try inspector.entries(EntryQuery(namespace: "other", after: page.next))
        }
        #expect(throws: InspectorError.noSuchNamespace("nope")) { try inspector.entries(EntryQuery(namespace: "nope")) }
    }

    @Test func cursorsSurviveAJSONRoundTrip() throws {
        let fixture = try Self.fixture()
        let inspector = fixture.store.inspector
        let sort = EntrySort(.expires, descending: true)
        let page = try inspector.entries(EntryQuery(namespace: "n", sort: sort, limit: 17))
        let data = try JSONEncoder().encode(page)
        let decoded = try JSONDecoder().decode(EntryPage.self, from: data)
        #expect(decoded == page)
        let next = try inspector.entries(EntryQuery(namespace: "n", sort: sort, limit: 17, after: decoded.next))
        let direct = try inspector.entries(EntryQuery(namespace: "n", sort: sort, limit: 17, after: page.next))
        #expect(next == direct)
    }
}
