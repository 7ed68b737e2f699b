import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// Hybrid namespaces' memory-tier hits reach their file entries' hits and last access through
/// the access log, as file reads do, so "never read" means never read by any tier.
@Suite struct MemoryHitRecordingTests {
    private let policy = NamespacePolicy.hybrid.expiring(.never)

    @Test func memoryHitsReachTheFileWhenTheLogIsWritten() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("colors", key: Int.self, value: String.self, policy: policy)
        try cache.set("red", for: 1)
        try cache.set("blue", for: 2)
        fixture.clock.advance(by: .seconds(5))
        for _ in 0..<3 { #expect(try cache.get(1) == "red") }
        #expect(cache.counters.snapshot().memoryHits == 3, "served from memory")
        #expect(try cache.hitCount(for: 1) == 3, "this store's unwritten memory hits count")
        #expect(try fixture.scalar("SELECT hits FROM entries WHERE key = '1'") == 0, "not written yet")
        try fixture.store.flush()
        #expect(try fixture.scalar("SELECT hits FROM entries WHERE key = '1'") == 3)
        let accessed = try fixture.scalar("SELECT accessed_at - created_at FROM entries WHERE key = '1'")
        #expect(accessed == 5_000, "last access moved to when the hits were taken")
        let never = try fixture.store.inspector.entries(EntryQuery(namespace: "colors", filter: try EntryFilter(parsing: "hits=0")))
        #expect(never.rows.map(\.key) == ["2"], "a key read only from memory is not 'never read'")
        try fixture.store.flush()
        #expect(try fixture.scalar("SELECT hits FROM entries WHERE key = '1'") == 3, "taken once")
    }

    @Test func hitsOfAnEntryLeavingMemoryStillCount() throws {
        let fixture = try TestStore()
        var small = policy
        small.memoryMaxEntries = 1
        let cache = try fixture.store.cache("colors", key: Int.self, value: String.self, policy: small)
        try cache.set("red", for: 1)
        _ = try cache.get(1)
        _ = try cache.get(1)
        try cache.set("blue", for: 2)  // evicts 1 from memory only
        #expect(cache.runtime.memory?.count == 1)
        try fixture.store.flush()
        #expect(try fixture.scalar("SELECT hits FROM entries WHERE key = '1'") == 2)
    }

    @Test func anotherProcessSeesMemoryHitsOnceTheAppWritesThem() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("colors", key: Int.self, value: String.self, policy: policy)
        try cache.set("red", for: 1)
        _ = try cache.get(1)
        let console = try fixture.reopen { $0.readOnly = true }
        defer { try? console.close() }
        let before = try console.inspector.entries(EntryQuery(namespace: "colors"))
        #expect(before.rows.first?.hits == 0)
        try fixture.store.flush()
        let after = try console.inspector.entries(EntryQuery(namespace: "colors"))
        #expect(after.rows.first?.hits == 1)
    }

    @Test func theBackgroundWriteCarriesMemoryHitsWithinTheInterval() throws {
        let fixture = try TestStore { $0.statistics.telemetryInterval = .milliseconds(20) }
        let cache = try fixture.store.cache("colors", key: Int.self, value: String.self, policy: policy)
        try cache.set("red", for: 1)
        _ = try cache.get(1)
        #expect(eventually { (try? fixture.scalar("SELECT hits FROM entries WHERE key = '1'")) == 1 } != nil)
    }
}
