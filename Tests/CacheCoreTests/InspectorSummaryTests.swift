import Foundation
import Testing

@testable import CacheCore

@Suite struct InspectorSummaryTests {
    @Test func theStoreSummaryReadsCountersAndPragmas() throws {
        let fixture = try TestStore()
        let colors = try fixture.store.cache("colors", key: Int.self, value: String.self)
        try colors.set("red", for: 1)
        try colors.set("green", for: 22)
        let blobs = try fixture.store.dataCache("blobs", key: String.self)
        try blobs.set(Data(count: 1000), for: "big")
        let summary = try fixture.inspectionStore().inspector.summary()
        #expect(summary.path == fixture.path)
        #expect(summary.now == fixture.clock.nowMilliseconds())
        #expect(summary.formatVersion == Schema.currentVersion && summary.isReadOnly)
        #expect(summary.namespaceCount == 2 && summary.entryCount == 3)
        let payload = (5 + 1) + (7 + 2) + (1000 + 3)  // "red" + 1, "green" + 22, 1000 bytes + "big"
        #expect(summary.payloadBytes == Int64(payload))
        #expect(summary.pageSize == 4096 && summary.pageCount > 0 && summary.freelistCount >= 0)
        #expect(summary.fileBytes > 0 && summary.walBytes > 0, "the app's writes sit in the log until a checkpoint")
        #expect(try !fixture.store.inspector.summary().isReadOnly)
    }

    @Test func namespaceSummariesCountExpiredEntriesAndDecodeThePolicy() throws {
        let fixture = try TestStore()
        let start = fixture.clock.nowMilliseconds()
        let policy = NamespacePolicy(
            expiration: .after(.seconds(60)), version: "v1", maxEntries: 10, eviction: .oldestCreated,
            staleWindow: .seconds(5))
        let sessions = try fixture.store.cache("sessions", key: Int.self, value: Int.self, policy: policy)
        try sessions.set(1, for: 1)
        fixture.clock.advance(by: .seconds(30))
        try sessions.set(2, for: 2)
        try sessions.set(3, for: 3, expiration: .never)
        fixture.clock.advance(by: .seconds(40))
        _ = try fixture.store.cache("sessions", key: Int.self, value: Int.self, policy: policy.version("v2"))
        _ = try fixture.store.cache("empty", key: Int.self, value: Int.self, policy: policy.version("v2"))
        try fixture.execute("UPDATE namespaces SET version = 'v1', policy = 'not json' WHERE name = 'empty'")

        let inspector = fixture.store.inspector
        let summaries = try inspector.namespaces()
        #expect(summaries.map(\.name) == ["empty", "sessions"])
        let sessionsSummary = try inspector.namespace("sessions")
        #expect(sessionsSummary.entryCount == 0, "the version change removed v1's entries")
        #expect(sessionsSummary.generation == 1 && sessionsSummary.version == "v2")
        #expect(sessionsSummary.policy == policy.version("v2"))
        #expect(sessionsSummary.createdAt == start && sessionsSummary.updatedAt == start + 70_000)
        let empty = summaries[0]
        #expect(empty.policy == nil && empty.policyJSON == "not json")
        #expect(throws: InspectorError.noSuchNamespace("nope")) { try inspector.namespace("nope") }
    }

    @Test func liveAndExpiredCountsFollowTheClock() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try cache.set(1, for: 1, expiration: .after(.seconds(10)))
        fixture.clock.advance(by: .seconds(5))
        try cache.set(2, for: 2, expiration: .after(.seconds(10)))
        try cache.set(3, for: 3, expiration: .never)
        let inspector = try fixture.inspectionStore().inspector
        fixture.clock.advance(by: .seconds(5))
        let summary = try inspector.namespace("n")
        #expect(summary.entryCount == 3 && summary.expiredEntryCount == 1 && summary.liveEntryCount == 2)
        #expect(summary.bytes == 3 * 2)
        fixture.clock.advance(by: .seconds(5))
        #expect(try inspector.namespace("n").expiredEntryCount == 2)
    }

    @Test func topListsRankAcrossNamespacesOrWithinOne() throws {
        let fixture = try TestStore()
        let a = try fixture.store.dataCache("a", key: String.self)
        let b = try fixture.store.dataCache("b", key: String.self)
        try a.set(Data(count: 50), for: "a-old")
        fixture.clock.advance(by: .seconds(1))
        try b.set(Data(count: 500), for: "b-big")
        try a.set(Data(count: 5), for: "a-hot")
        try b.set(Data(count: 1), for: "b-warm")
        try fixture.execute(
            "UPDATE entries SET hits = 9 WHERE key = 'a-hot'; UPDATE entries SET hits = 2 WHERE key = 'b-warm'")
        let inspector = fixture.store.inspector
        #expect(try inspector.top(.largest).rows.map(\.key) == ["b-big", "a-old", "a-hot", "b-warm"])
        #expect(try inspector.top(.largest, limit: 2).rows.map(\.namespace) == ["b", "a"])
        #expect(try inspector.top(.hottest).rows.map(\.key) == ["a-hot", "b-warm"])
        #expect(try inspector.top(.neverRead).rows.map(\.key) == ["a-old", "b-big"])
        #expect(try inspector.top(.oldest).rows.map(\.key) == ["a-old", "b-big", "a-hot", "b-warm"])
        let inA = try inspector.top(.largest, namespace: "a")
        #expect(inA.rows.map(\.key) == ["a-old", "a-hot"] && inA.namespace == "a" && inA.rankedFromRowID == nil)
        let windowed = try inspector.top(.oldest, scanLimit: 2)
        #expect(windowed.rows.map(\.key) == ["a-hot", "b-warm"] && windowed.rankedFromRowID == 3)
        #expect(throws: InspectorError.noSuchNamespace("c")) { try inspector.top(.largest, namespace: "c") }
    }

    @Test func resultsEncodeAsStableJSONWithMillisecondTimes() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try cache.set(7, for: 1, expiration: .after(.milliseconds(1500)), tags: ["t"])
        let inspector = fixture.store.inspector
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let row = try #require(try inspector.entries(EntryQuery(namespace: "n")).rows.first)
        let now = fixture.clock.nowMilliseconds()
        let json = String(decoding: try encoder.encode(row), as: UTF8.self)
        #expect(
            json
                == """
                {"createdAt":\(now),"expiresAt":\(now + 1500),"hits":0,"id":\(row.id),"key":"1","lastAccessAt":null,\
                "namespace":"n","preview":"Nw==","size":2,"staleUntil":\(now + 1500 + 3_600_000),"tags":["t"],"valueBytes":1,\
                "version":""}
                """)
        for value in [
            try encoder.encode(try inspector.summary()), try encoder.encode(try inspector.namespaces()),
            try encoder.encode(try inspector.expiryTimeline()), try encoder.encode(try inspector.top(.largest)),
            try encoder.encode(try inspector.entry(id: row.id)),
        ] {
            #expect(!value.isEmpty)
        }
        let detail = try #require(try inspector.entry(id: row.id))
        #expect(try JSONDecoder().decode(EntryDetail.self, from: try encoder.encode(detail)) == detail)
    }
}
