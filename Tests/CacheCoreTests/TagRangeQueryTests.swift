import Foundation
import Testing

@testable import CacheCore

/// Queries by key prefix and tag read the tag's entries under the prefix (format 9's
/// `entry_tags_by_key`), in every order, and return exactly what the filter selects.
@Suite struct TagRangeQueryTests {
    private static let orders = [
        EntrySort(.key), EntrySort(.key, descending: true), EntrySort(.created), EntrySort(.created, descending: true),
        EntrySort(.expires), EntrySort(.expires, descending: true), EntrySort(.sortValue),
        EntrySort(.sortValue, descending: true),
    ]

    /// 400 entries under `a/` and `b/`, written in shuffled order a second apart; every fifth
    /// tagged `star` (some also `x`), some never expiring, some expired, most with a sort
    /// value; `other` holds the same keys, all starred.
    private func mailbox() throws -> (TestStore, Cache<String, Int>) {
        let fixture = try TestStore()
        let mail = try fixture.store.cache("mail", key: String.self, value: Int.self)
        let other = try fixture.store.cache("other", key: String.self, value: Int.self)
        for index in 0..<400 {
            let number = (index * 157) % 400
            let key = String(format: "%@/%03d", number % 2 == 0 ? "a" : "b", number)
            let tags = (number % 5 == 0 ? ["star"] : []) + (number % 3 == 0 ? ["x"] : [])
            let expiration: Expiration =
                number % 7 == 0 ? .never : .after(.seconds(number % 11 == 0 ? 1 : 1000 + (number * 13) % 500))
            try mail.set(
                number, for: key, expiration: expiration, tags: tags,
                sortValue: number % 4 == 0 ? nil : Int64((number * 31) % 400))
            try other.set(number, for: key, tags: ["star"])
            fixture.clock.advance(by: .seconds(1))
        }
        fixture.clock.advance(by: .seconds(2))
        return (fixture, mail)
    }

    /// Every page of `query` in turn, following the cursor.
    private func walk(_ cache: Cache<String, Int>, _ query: CacheQuery) throws -> [String] {
        var query = query
        var keys: [String] = []
        while true {
            let page = try cache.entries(query)
            keys += page.entries.map(\.key)
            guard let next = page.next else { return keys }
            query.after = next
        }
    }

    /// The namespace in `order` (no tag: the order's own walk or ranking), filtered in Swift.
    private func reference(_ cache: Cache<String, Int>, _ order: EntrySort, prefix: String, tag: String) throws
        -> [String]
    {
        try cache.entries(CacheQuery(orderedBy: order, limit: 10_000)).entries
            .filter { $0.key.hasPrefix(prefix) && $0.tags.contains(tag) }.map(\.key)
    }

    @Test func prefixAndTagPagesAreTheFiltersRowsInEveryOrderWithTheCursor() throws {
        let (fixture, mail) = try mailbox()
        let removed = try fixture.store.admin.run(.invalidate(.keys(namespace: "mail", keys: ["a/010", "a/020"])))
        for order in Self.orders {
            let expected = try reference(mail, order, prefix: "a/", tag: "star")
            #expect(expected.count == 35 && expected.contains("a/000") && !expected.contains("a/010"))
            #expect(!expected.contains("a/110"), "expired")
            #expect(
                try walk(mail, CacheQuery(prefix: "a/", tags: ["star"], orderedBy: order, limit: 7)) == expected,
                "\(order)")
            #expect(
                try walk(mail, CacheQuery(prefix: "a/", tags: ["star", "x"], orderedBy: order, limit: 3))
                    == expected.filter { Int($0.dropFirst(2))! % 3 == 0 }, "\(order)")
        }
        #expect(try mail.count(matching: CacheQuery(prefix: "a/", tags: ["star"])) == 35)
        // Undone, the removed entries come back into the tag's range of the namespace.
        try fixture.store.admin.undo(removed.auditID)
        #expect(try walk(mail, CacheQuery(prefix: "a/", tags: ["star"], limit: 50)).contains("a/010"))
        #expect(try walk(mail, CacheQuery(prefix: "a/02", tags: ["star"], limit: 50)) == ["a/020"])
    }

    @Test func aPageReadsTheTagsEntriesUnderThePrefixNotEveryKeyUnderIt() throws {
        let (fixture, _) = try mailbox()
        let filter = try EntryFilter(parsing: "prefix:a/ tag:star")
        for field in [EntrySortField.key, .created, .expires, .sortValue] {
            let page = try fixture.store.inspector.entries(
                EntryQuery(namespace: "mail", sort: EntrySort(field), filter: filter, limit: 5))
            #expect(page.rows.count == 5 && page.examinedRows <= 40, "\(field): examined \(page.examinedRows)")
        }
    }

    /// A format-8 file's tag rows get their namespace and key when it migrates.
    @Test func aFormat8FileMigratesItsTagRows() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        try olderFormatFile(
            at: path, version: 8,
            """
            INSERT INTO namespaces (id, name, created_at, updated_at) VALUES (1, 'c', 0, 0);
            INSERT INTO entries (namespace_id, key, value, size, created_at, accessed_at, tags)
                VALUES (1, 'p/1', CAST('1' AS BLOB), 4, 1, 1, '["t"]'), (1, 'p/2', CAST('2' AS BLOB), 4, 2, 2, '["u"]'),
                       (1, 'q/3', CAST('3' AS BLOB), 4, 3, 3, '["t"]');
            """)
        let store = try CacheStore(path: path, options: StoreOptions(clock: ManualClock()))
        defer { try? store.close() }
        let cache = try store.cache("c", key: String.self, value: Int.self, policy: .default.expiring(.never))
        #expect(try walk(cache, CacheQuery(prefix: "p/", tags: ["t"])) == ["p/1"])
        #expect(
            try rawScalar(path: path, "SELECT count(*) FROM entry_tags WHERE namespace_id = 1 AND key IS NOT NULL") == 3)
    }
}
