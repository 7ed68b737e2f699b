import Foundation
import Testing

@testable import CacheCore

@Suite struct EvictionTests {
    @Test func leastRecentlyReadGoesFirstOnceOverMaxEntries() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache(
            "lru", key: String.self, value: Int.self, policy: NamespacePolicy(maxEntries: 3))
        for (offset, key) in ["a", "b", "c"].enumerated() {
            try cache.set(offset, for: key)
            fixture.clock.advance(by: .milliseconds(10))
        }
        #expect(try cache.get("a") == 0)
        fixture.clock.advance(by: .milliseconds(10))
        try cache.set(3, for: "d")
        #expect(try cache.count() == 3)
        #expect(try cache.get("b") == nil, "b was the least recently used")
        #expect(try cache.get("a") == 0)
        #expect(try cache.get("c") == 2)
        #expect(try cache.get("d") == 3)
    }

    @Test func expiredEntriesGoBeforeLiveOnes() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache(
            "lru", key: String.self, value: Int.self, policy: NamespacePolicy(maxEntries: 3))
        try cache.set(0, for: "old", expiration: .never)
        fixture.clock.advance(by: .milliseconds(10))
        try cache.set(1, for: "brief", expiration: .after(.milliseconds(5)))
        try cache.set(2, for: "other", expiration: .never)
        fixture.clock.advance(by: .milliseconds(10))
        try cache.set(3, for: "new", expiration: .never)
        #expect(try fixture.scalar("SELECT count(*) FROM entries WHERE key = 'brief'") == 0)
        #expect(try cache.get("old") == 0, "the live LRU entry stays while an expired one can go")
        #expect(try cache.count() == 3)
    }

    @Test func keepNewestDropsTheOldestWrittenEvenIfRecentlyRead() throws {
        let fixture = try TestStore()
        let mailbox = try fixture.store.cache(
            "mail", key: Int.self, value: String.self, policy: .default.keepingNewest(100))
        for id in 0..<150 {
            try mailbox.set("message \(id)", for: id)
            fixture.clock.advance(by: .milliseconds(1))
            _ = try mailbox.get(0)
        }
        #expect(try mailbox.count() == 100)
        #expect(try mailbox.get(49) == nil)
        #expect(try mailbox.get(50) == "message 50")
        #expect(try mailbox.get(0) == nil, "reads do not protect old mail")
    }

    @Test func maxBytesEvictsJustEnoughBytes() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.dataCache("blobs", key: String.self, policy: NamespacePolicy(maxBytes: 350))
        for key in ["a", "b", "c"] {
            try cache.set(Data(count: 99), for: key)
            fixture.clock.advance(by: .milliseconds(1))
        }
        try cache.set(Data(count: 99), for: "d")
        #expect(try cache.count() == 3)
        #expect(try cache.get("a") == nil)
        #expect(try fixture.scalar("SELECT total_bytes FROM namespaces WHERE name = 'blobs'") == 300)
    }

    @Test func aStoreWideLimitEvictsAcrossNamespacesByRecency() throws {
        let fixture = try TestStore { $0.maxEntries = 4 }
        let left = try fixture.store.cache("left", key: Int.self, value: Int.self)
        let right = try fixture.store.cache("right", key: Int.self, value: Int.self)
        try left.set(1, for: 1)
        fixture.clock.advance(by: .milliseconds(1))
        try right.set(1, for: 1)
        fixture.clock.advance(by: .milliseconds(1))
        try left.set(2, for: 2)
        fixture.clock.advance(by: .milliseconds(1))
        try right.set(2, for: 2)
        fixture.clock.advance(by: .milliseconds(1))
        _ = try left.get(1)
        fixture.clock.advance(by: .milliseconds(1))
        try right.set(3, for: 3)
        #expect(try left.count() + right.count() == 4)
        #expect(try right.get(1) == nil, "right/1 was the least recently used in the whole store")
        #expect(try left.get(1) == 1)
    }

    @Test func aBatchLargerThanTheLimitKeepsTheLimitNotNothing() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache(
            "capped", key: Int.self, value: Int.self, policy: NamespacePolicy(maxEntries: 10))
        try cache.set((0..<25).map { (key: $0, value: $0) })
        #expect(try cache.count() == 10)
    }

    @Test func readsUpdateRecencyAndHitsOnlyWhenFlushed() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: String.self, value: Int.self)
        try cache.set(1, for: "a")
        let written = try fixture.scalar("SELECT accessed_at FROM entries")
        fixture.clock.advance(by: .seconds(5))
        _ = try cache.get("a")
        _ = try cache.get("a")
        #expect(try fixture.scalar("SELECT accessed_at FROM entries") == written, "a read is never a write")
        try fixture.store.flush()
        #expect(try fixture.scalar("SELECT accessed_at FROM entries") == written.map { $0 + 5000 })
        #expect(try fixture.scalar("SELECT hits FROM entries") == 2)
    }
}

/// The background thread writes the log every telemetry interval of real time; these tests
/// set it to an hour, so only what they call writes it (a slow machine would otherwise
/// have it written in the middle of their reads).
@Suite struct AccessLogTests {
    @Test func setsDoNotCarryRecordedReadsTheBackgroundWritesThem() throws {
        let fixture = try TestStore { $0.statistics.telemetryInterval = .seconds(3600) }
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try cache.set((0..<1200).map { (key: $0, value: $0) })
        fixture.clock.advance(by: .seconds(1))
        for key in 0..<1200 { _ = try cache.get(key) }
        try cache.set(-1, for: 5000)
        #expect(try fixture.scalar("SELECT sum(hits) FROM entries") == 0, "a set is never slowed by reads")
        try fixture.store.accessLog.writeInSlices(to: fixture.store.database, now: fixture.clock.nowMilliseconds())
        #expect(try fixture.scalar("SELECT sum(hits) FROM entries") == 1200)
        #expect(fixture.store.accessLog.isEmpty)
    }

    @Test func theLogIsBoundedWhenNothingWrites() throws {
        let fixture = try TestStore { $0.statistics.telemetryInterval = .seconds(3600) }
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        let count = AccessLog.capacity + 100
        try cache.set((0..<count).map { (key: $0, value: $0) })
        for key in 0..<count { _ = try cache.get(key) }
        _ = try cache.get(0)
        try fixture.store.flush()
        #expect(try fixture.scalar("SELECT count(*) FROM entries WHERE hits > 0") == Int64(AccessLog.capacity))
        #expect(
            try fixture.scalar("SELECT hits FROM entries WHERE key = '0'") == 2, "entries already logged still count")
    }
}
