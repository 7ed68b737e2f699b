import Foundation
import Testing

@testable import CacheCore

@Suite struct TierTests {
    @Test func aMemoryOnlyNamespaceWritesNothingToTheFile() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("session", key: String.self, value: Int.self, policy: .memoryOnly)
        try cache.set(1, for: "a")
        #expect(try cache.get("a") == 1)
        #expect(try cache.count() == 1)
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 0)
        #expect(try fixture.reopen().cache("session", key: String.self, value: Int.self).get("a") == nil)
    }

    @Test func aFileHitIsCopiedIntoMemoryWithItsOriginalExpiry() throws {
        let fixture = try TestStore()
        let policy = NamespacePolicy.hybrid.expiring(.after(.seconds(10)))
        try fixture.store.cache("parts", key: String.self, value: String.self, policy: policy).set("brick", for: "3001")
        fixture.clock.advance(by: .seconds(8))
        let restarted = try fixture.reopen()
        let cache = try restarted.cache("parts", key: String.self, value: String.self, policy: policy)
        #expect(try cache.get("3001") == "brick")
        #expect(cache.runtime.memory?.count == 1)
        // The copy must still expire when the file row does: 10 s after the write, not 10 s after the read.
        try rawExecute(path: fixture.path, "UPDATE entries SET value = CAST('\"changed\"' AS BLOB)")
        #expect(try cache.get("3001") == "brick")
        fixture.clock.advance(by: .seconds(2))
        #expect(try cache.get("3001") == nil)
    }

    @Test func memoryHitsDoNotReadTheFile() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("colors", key: Int.self, value: String.self, policy: .hybrid)
        try cache.set("red", for: 4)
        try rawExecute(path: fixture.path, "DELETE FROM entries")
        #expect(try cache.get(4) == "red")
    }

    @Test func writeBehindReachesTheFileOnFlushAndClose() throws {
        let fixture = try TestStore()
        let policy = NamespacePolicy.performance
        let cache = try fixture.store.cache("tiles", key: String.self, value: Int.self, policy: policy)
        try cache.set([(key: "a", value: 1), (key: "b", value: 2)])
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 0)
        #expect(try cache.get("a") == 1)
        try fixture.store.flush()
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 2)
        try cache.set(3, for: "c")
        try fixture.store.close()
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 3)
    }

    @Test func writeBehindServesAWaitingSetEvenAfterMemoryEvictedIt() throws {
        let fixture = try TestStore()
        var policy = NamespacePolicy.performance
        policy.memoryMaxEntries = 1
        let cache = try fixture.store.cache("tiles", key: String.self, value: Int.self, policy: policy)
        try cache.set(1, for: "a")
        try cache.set(2, for: "b")
        #expect(cache.runtime.memory?.count == 1)
        #expect(try cache.get("a") == 1)
        try cache.remove("a")
        try fixture.store.flush()
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 1)
    }

    @Test func aFlushDueByTheClockWritesOnlyAfterTheInterval() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("tiles", key: String.self, value: Int.self, policy: .performance)
        try fixture.store.flushPendingWrites(force: false)
        try cache.set(1, for: "a")
        try fixture.store.flushPendingWrites(force: false)
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 0)
        fixture.clock.advance(by: .seconds(1))
        try fixture.store.flushPendingWrites(force: false)
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 1)
    }

    @Test func staleReadsComeFromMemoryWithinTheWindow() throws {
        let fixture = try TestStore()
        var policy = NamespacePolicy.memoryOnly.expiring(.after(.seconds(10)))
        policy.staleWindow = .seconds(5)
        let cache = try fixture.store.cache("rates", key: String.self, value: Double.self, policy: policy)
        try cache.set(1.5, for: "eur")
        fixture.clock.advance(by: .seconds(12))
        #expect(try cache.get("eur") == nil)
        let stale = try cache.getStale("eur")
        #expect(stale?.value == 1.5 && stale?.isStale == true)
        fixture.clock.advance(by: .seconds(3))
        #expect(try cache.getStale("eur") == nil)
    }

    @Test func presetsAreRecordedInTheFile() throws {
        let fixture = try TestStore()
        _ = try fixture.store.cache("fast", key: String.self, value: Int.self, policy: .performance)
        let json = try #require(
            try fixture.store.database.read { try $0.namespaceRow(name: "fast")?.policyJSON })
        let decoded = try JSONDecoder().decode(NamespacePolicy.self, from: Data(json.utf8))
        #expect(decoded == .performance)
        #expect(decoded.tiers == .memoryAndDisk && decoded.writeBehind == .seconds(1))
    }
}
