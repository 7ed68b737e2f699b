import Foundation
import Testing

@testable import CacheCore

private struct Message: Codable, Sendable, Equatable {
    let id: Int
    let subject: String
}

/// The email app's repository on a cache: fetch by account, folder and read state, newest
/// first, a page at a time; counts; `saveAll` with a tag per message.
@Suite struct QueryTests {
    /// 120 messages of two accounts, written a second apart (message 0 oldest), tagged with
    /// their folder and `unread` for every third; keys `acct-A/NNN`.
    private func mailbox() throws -> (TestStore, Cache<String, Message>) {
        let fixture = try TestStore()
        let mail = try fixture.store.cache("mail", key: String.self, value: Message.self)
        for id in 0..<120 {
            let tags = [id % 2 == 0 ? "inbox" : "archive"] + (id % 3 == 0 ? ["unread"] : [])
            try mail.set([
                (key: String(format: "acct-%d/%03d", id % 2, id), value: Message(id: id, subject: "s\(id)"), tags: tags)
            ])
            fixture.clock.advance(by: .seconds(1))
        }
        return (fixture, mail)
    }

    @Test func pagesByPrefixAndTagNewestFirstWithCursorAndOffset() throws {
        let (fixture, mail) = try mailbox()
        _ = fixture
        let newest = CacheQuery(
            prefix: "acct-0/", tags: ["inbox", "unread"], orderedBy: EntrySort(.created, descending: true), limit: 7)
        let expected = (0..<120).filter { $0 % 2 == 0 && $0 % 3 == 0 }.reversed().map { $0 }
        var seen: [Int] = []
        var query = newest
        while true {
            let page = try mail.entries(query)
            #expect(page.entries.count <= 7)
            seen += page.entries.map(\.value.id)
            #expect(
                page.entries.allSatisfy {
                    $0.key == String(format: "acct-0/%03d", $0.value.id) && $0.tags.contains("unread")
                })
            guard let next = page.next else { break }
            query.after = next
        }
        #expect(seen == expected)
        #expect(try mail.count(matching: newest) == expected.count)
        var skipping = newest
        skipping.offset = 10
        #expect(try mail.entries(skipping).entries.map(\.value.id) == Array(expected.dropFirst(10).prefix(7)))
        let byKey = try mail.entries(CacheQuery(prefix: "acct-1/", limit: 3))
        #expect(byKey.entries.map(\.key) == ["acct-1/001", "acct-1/003", "acct-1/005"])
    }

    @Test func filterTermsExpiryAndTheStoreWideCount() throws {
        let (fixture, mail) = try mailbox()
        try mail.set(Message(id: 999, subject: "soon gone"), for: "acct-9/999", expiration: .after(.seconds(1)))
        #expect(try mail.count(matching: CacheQuery(filter: EntryFilter(parsing: "regex:/99"))) == 1)
        #expect(try fixture.store.count() == 121)
        fixture.clock.advance(by: .seconds(1))
        #expect(try mail.count(matching: CacheQuery(prefix: "acct-9/")) == 0, "expired entries are not selected")
        #expect(try mail.count(matching: CacheQuery(prefix: "acct-9/", includesExpired: true)) == 1)
        #expect(try fixture.store.count() == 120)
        let soonest = CacheQuery(orderedBy: EntrySort(.expires), limit: 2)
        #expect(try mail.entries(soonest).entries.map(\.value.id) == [0, 1], "live entries, soonest first")
        var withExpired = soonest
        withExpired.includesExpired = true
        #expect(try mail.entries(withExpired).entries.map(\.value.id) == [999, 0])
        let old = try mail.entries(CacheQuery(filter: EntryFilter(parsing: "age>=121s"), limit: 10))
        #expect(old.entries.map(\.value.id) == [0])
    }

    @Test func theAsyncFaceAndOtherKeyTypes() async throws {
        let fixture = try TestStore()
        let tiles = try fixture.store.cache("tiles", key: Int.self, value: String.self)
        try tiles.set([
            (key: 3, value: "c", tags: ["x"]), (key: 1, value: "a", tags: []), (key: 2, value: "b", tags: ["x"]),
        ])
        let page = try await tiles.async.entries(CacheQuery(tags: ["x"], orderedBy: EntrySort(.key, descending: true)))
        #expect(page.entries.map(\.key) == [3, 2] && page.entries.map(\.value) == ["c", "b"])
        #expect(try await tiles.async.count(matching: CacheQuery()) == 3)
        let ids = try fixture.store.cache("ids", key: UUID.self, value: Int.self)
        let id = UUID()
        try ids.set(7, for: id)
        #expect(try ids.entries().entries.first?.key == id)
    }

    /// `saveAll`: one transaction for the batch, each item with its own tags.
    @Test func aBatchWithTagsPerItemIsOneWrite() throws {
        let fixture = try TestStore()
        let mail = try fixture.store.cache("mail", key: Int.self, value: String.self)
        try mail.set([(key: 1, value: "a", tags: ["inbox"]), (key: 2, value: "b", tags: ["sent", "starred"])])
        #expect(try fixture.scalar("SELECT count(*) FROM entry_tags") == 3)
        #expect(try mail.count(matching: CacheQuery(tags: ["starred"])) == 1)
        #expect(try fixture.store.invalidate(.tag("inbox", namespace: "mail")).totalRemoved == 1)
    }

    @Test func memoryOnlyNamespacesRefuseQueries() throws {
        let fixture = try TestStore()
        let memory = try fixture.store.cache("m", key: Int.self, value: Int.self, policy: .memoryOnly)
        #expect(throws: CacheError.self) { try memory.entries() }
    }
}
