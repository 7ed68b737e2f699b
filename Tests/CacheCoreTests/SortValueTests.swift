import Foundation
import Testing

@testable import CacheCore

private struct Email: Codable, Sendable, Equatable {
    let id: Int
    /// Milliseconds since 1970: the entry's sort value.
    let date: Int64
    var isRead = false
}

/// An app-given sort value per entry (format 7): queries order by it, `keepingNewest(N, by:
/// .sortValue)` keeps the highest N whatever order they were written in.
@Suite struct SortValueTests {
    /// 1,200 emails dated a minute apart, in a shuffled order (the same every run).
    private static func shuffledEmails() -> [Email] {
        var generator = SplitMix64(seed: 23)
        return (0..<1200).map { Email(id: $0, date: 1_700_000_000_000 + Int64($0) * 60_000) }
            .shuffled(using: &generator)
    }

    /// The email app's `deleteOldest(keepCount: 1000)`: written one by one in shuffled order,
    /// then an old message marked read; the 1,000 kept are the 1,000 newest by date. (By write
    /// order, 835 of them were, and marking a message read made it "newest".)
    @Test func keepingNewestBySortValueKeepsTheNewestByDate() throws {
        let fixture = try TestStore()
        let mail = try fixture.store.cache(
            "mail", key: Int.self, value: Email.self, policy: .default.expiring(.never).keepingNewest(1000, by: .sortValue))
        for email in Self.shuffledEmails() {
            try mail.set(email, for: email.id, sortValue: email.date)
        }
        var oldest = try #require(try mail.get(200))
        oldest.isRead = true
        try mail.set(oldest, for: oldest.id, sortValue: oldest.date)
        let kept = try mail.entries(CacheQuery(orderedBy: EntrySort(.sortValue, descending: true), limit: 10_000))
        #expect(kept.entries.map(\.key) == Array((200..<1200).reversed()))
        #expect(kept.entries.allSatisfy { $0.sortValue == $0.value.date })
        #expect(try mail.count() == 1000)
    }

    /// The same through batches (`saveAll`), with messages set without a date evicted first.
    @Test func batchSetsCarrySortValuesAndUndatedEntriesGoFirst() throws {
        let fixture = try TestStore()
        let mail = try fixture.store.cache(
            "mail", key: Int.self, value: Email.self, policy: .default.expiring(.never).keepingNewest(1000, by: .sortValue))
        try mail.set(Email(id: 5000, date: 0), for: 5000)
        let emails = Self.shuffledEmails()
        for start in stride(from: 0, to: emails.count, by: 300) {
            try mail.set(
                emails[start..<start + 300].map {
                    CacheItem(key: $0.id, value: $0, tags: [$0.id % 2 == 0 ? "inbox" : "sent"], sortValue: $0.date)
                })
        }
        #expect(try mail.get(5000) == nil)
        #expect(try mail.count() == 1000)
        let inbox = try mail.entries(CacheQuery(tags: ["inbox"], orderedBy: EntrySort(.sortValue), limit: 3))
        #expect(inbox.entries.map(\.key) == [200, 202, 204])
    }

    /// Ascending and descending pages with a cursor, entries without a sort value after those
    /// with one (in key order) in both directions; overwriting an entry changes its place.
    @Test func pagesInSortValueOrderWithACursor() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("c", key: String.self, value: Int.self)
        let values: [(String, Int64?)] = [("a", 30), ("b", nil), ("c", -5), ("d", 30), ("e", nil), ("f", 7)]
        for (key, value) in values { try cache.set(0, for: key, sortValue: value) }
        func all(descending: Bool) throws -> [String] {
            var query = CacheQuery(orderedBy: EntrySort(.sortValue, descending: descending), limit: 2)
            var keys: [String] = []
            while true {
                let page = try cache.entries(query)
                keys += page.entries.map(\.key)
                guard let next = page.next else { return keys }
                query.after = next
            }
        }
        #expect(try all(descending: false) == ["c", "f", "a", "d", "b", "e"])
        #expect(try all(descending: true) == ["d", "a", "f", "c", "e", "b"])
        try cache.set(0, for: "b", sortValue: 100)
        try cache.set(0, for: "a", sortValue: nil)
        #expect(try all(descending: true) == ["b", "d", "f", "c", "e", "a"])
        #expect(try cache.entries(CacheQuery(prefix: "b")).entries.first?.sortValue == 100)
    }

    /// Rows without a sort value are not in its index, and a page in its order walks the index.
    @Test func onlyEntriesWithASortValueAreIndexed() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("c", key: Int.self, value: Int.self)
        try cache.set((0..<100).map { (key: $0, value: $0) })
        try cache.set(1, for: 1000, sortValue: 1)
        let indexed = try fixture.scalar(
            "SELECT count(*) FROM entries INDEXED BY entries_by_sort_value WHERE namespace_id > 0 AND sort_value IS NOT NULL"
        )
        #expect(indexed == 1)
        let definition = try SQLiteConnection(path: fixture.path, readOnly: true, create: false, busyTimeout: .seconds(1))
            .withStatement("SELECT sql FROM sqlite_master WHERE name = 'entries_by_sort_value'") {
                try $0.firstRow { $0.text(0) }
            }
        #expect(definition?.hasSuffix("WHERE sort_value IS NOT NULL") == true)
    }

    /// A format-6 file migrates: its entries stay, without sort values, and new ones carry them;
    /// read-only, an unmigrated file still shows its entries and refuses the order in one line.
    @Test func aFormat6FileMigratesAndReadsOnlyWithoutSortValues() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        try olderFormatFile(
            at: path, version: 6,
            """
            INSERT INTO namespaces (id, name, created_at, updated_at) VALUES (1, 'c', 0, 0);
            INSERT INTO entries (namespace_id, key, value, size, created_at, accessed_at)
                VALUES (1, 'old', CAST('1' AS BLOB), 4, 1, 1);
            """)
        let reader = try CacheStore(path: path, options: StoreOptions(readOnly: true))
        #expect(try reader.inspector.entry(namespace: "c", key: "old")?.sortValue == nil)
        #expect(throws: InspectorError.noSortValues) {
            try reader.inspector.entries(EntryQuery(namespace: "c", sort: EntrySort(.sortValue)))
        }
        try reader.close()
        let store = try CacheStore(path: path, options: StoreOptions(clock: ManualClock()))
        defer { try? store.close() }
        #expect(try rawScalar(path: path, "PRAGMA user_version") == Int64(Schema.currentVersion))
        let cache = try store.cache("c", key: String.self, value: Int.self, policy: .default.expiring(.never))
        try cache.set(2, for: "new", sortValue: 9)
        #expect(try cache.get("old") == 1)
        let page = try cache.entries(CacheQuery(orderedBy: EntrySort(.sortValue)))
        #expect(page.entries.map(\.key) == ["new", "old"] && page.entries.map(\.sortValue) == [9, nil])
        #expect(try store.inspector.entry(namespace: "c", key: "new")?.sortValue == 9)
    }
}
