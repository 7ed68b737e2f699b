import Dispatch
import Foundation
import Synchronization
import Testing

@testable import CacheCore

@Suite struct StatisticsTests {
    @Test func readsWritesAndRemovalsAreCountedPerNamespaceAndOverall() throws {
        let fixture = try TestStore()
        let colors = try fixture.store.cache("colors", key: Int.self, value: String.self)
        let parts = try fixture.store.cache("parts", key: Int.self, value: String.self)
        try colors.set([(key: 1, value: "red"), (key: 2, value: "green")])
        try colors.set("blue", for: 3, expiration: .after(.seconds(1)))
        try parts.set("brick", for: 1)

        #expect(try colors.get(1) == "red")
        #expect(try colors.get(2) == "green")
        #expect(try colors.get(9) == nil)
        #expect(try colors.get(1, maxAge: .zero) == nil, "too old is a miss")
        fixture.clock.advance(by: .seconds(1))
        #expect(try colors.get(3) == nil, "expired is a miss")
        #expect(try parts.get(1) == "brick")
        #expect(try colors.remove(1))
        #expect(try !colors.remove(1), "removing nothing counts nothing")
        #expect(try parts.removeAll() == 1)
        #expect(try colors.contains(2), "contains is not a read")

        let statistics = fixture.store.statistics()
        #expect(statistics["colors"] == CacheStatistics(diskHits: 2, misses: 3, sets: 3, removes: 1))
        #expect(statistics["parts"] == CacheStatistics(diskHits: 1, sets: 1, removes: 1))
        #expect(statistics.overall == CacheStatistics(diskHits: 3, misses: 3, sets: 4, removes: 2))
        #expect(colors.statistics() == statistics["colors"])
        #expect(statistics["never-opened"] == .zero)
    }

    @Test func memoryHitsCountedByTheTierSurviveResetsAndAReplacedTier() async throws {
        let fixture = try TestStore()
        let memory = try fixture.store.cache(
            "m", key: String.self, value: Int.self, policy: NamespacePolicy(tiers: .memory))
        try memory.set(1, for: "a")
        #expect(try memory.get("a") == 1 && memory.get("a") == 1)
        #expect(try await memory.async.get("a") == 1)
        #expect(fixture.store.statistics()["m"].memoryHits == 3)
        fixture.store.resetStatistics()
        #expect(try memory.get("a") == 1)
        #expect(memory.statistics().memoryHits == 1)
        // A handle with other tiers replaces the runtime; the older handle keeps its tier.
        _ = try fixture.store.cache("m", key: String.self, value: Int.self, policy: NamespacePolicy(tiers: .disk))
        #expect(fixture.store.statistics()["m"].memoryHits == 1)
        #expect(try memory.get("a") == 1)
        #expect(fixture.store.statistics()["m"].memoryHits == 2)
        #expect(fixture.store.statistics().overall.memoryHits == 2)
    }

    @Test func staleReadsAreStaleHitsAndUndecodableValuesAreMisses() throws {
        let fixture = try TestStore()
        let policy = NamespacePolicy(staleWindow: .seconds(30))
        let cache = try fixture.store.cache("n", key: String.self, value: Int.self, policy: policy)
        try cache.set(1, for: "a", expiration: .after(.seconds(10)))
        #expect(try cache.getStale("a")?.isStale == false)
        fixture.clock.advance(by: .seconds(10))
        #expect(try cache.getStale("a")?.isStale == true)
        #expect(try cache.getStale("b") == nil)
        let text = try fixture.store.cache("n", key: String.self, value: String.self, policy: policy)
        try text.set("not a number", for: "c")
        #expect(try cache.get("c") == nil)

        let counts = cache.statistics()
        #expect(counts.diskHits == 1 && counts.staleHits == 1 && counts.misses == 2)
        #expect(counts.requests == 4)
        #expect(counts.hitRate == 0.25)
        #expect(counts.missRate == 0.75, "a stale hit is not a hit")
    }

    @Test func ratesPenaltyAndHealthFollowTheCounts() {
        var counts = CacheStatistics(memoryHits: 6, diskHits: 2, misses: 2)
        #expect(counts.hits == 8 && counts.requests == 10)
        #expect(counts.hitRate == 0.8 && counts.missRate == 0.2)
        #expect(counts.health == .excellent)
        counts.loadSuccesses = 3
        counts.loadFailures = 1
        counts.totalLoadTime = .milliseconds(100)
        #expect(counts.averageLoadPenalty == .milliseconds(25))
        #expect(CacheStatistics.zero.hitRate == 0 && CacheStatistics.zero.averageLoadPenalty == .zero)

        #expect(CacheHealth(hitRate: 1, requests: 9) == .unknown)
        #expect(CacheHealth(hitRate: 0.8, requests: 10) == .excellent)
        #expect(CacheHealth(hitRate: 0.79, requests: 10) == .good)
        #expect(CacheHealth(hitRate: 0.6, requests: 10) == .good)
        #expect(CacheHealth(hitRate: 0.59, requests: 10) == .fair)
        #expect(CacheHealth(hitRate: 0.4, requests: 10) == .fair)
        #expect(CacheHealth(hitRate: 0.39, requests: 10) == .poor)
        #expect(CacheHealth(hitRate: 0, requests: 1000) == .poor)
    }

    @Test func loaderAndTierHooksFeedTheSameCounters() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        cache.counters.memoryHit()
        cache.counters.memoryHit()
        cache.counters.invalidated(count: 5)
        cache.counters.loadSucceeded(milliseconds: 12.5)
        cache.counters.loadFailed(milliseconds: 7.5)
        let counts = cache.statistics()
        #expect(counts.memoryHits == 2 && counts.invalidations == 5)
        #expect(counts.loadSuccesses == 1 && counts.loadFailures == 1)
        #expect(counts.totalLoadTime == .milliseconds(20))
        #expect(counts.averageLoadPenalty == .milliseconds(10))
    }

    @Test func snapshotsSubtractAndResetStartsFromZero() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try cache.set(1, for: 1)
        _ = try cache.get(1)
        let earlier = fixture.store.statistics()
        _ = try cache.get(1)
        _ = try cache.get(2)
        let later = fixture.store.statistics()
        #expect((later - earlier)["n"] == CacheStatistics(diskHits: 1, misses: 1))
        #expect((later - earlier).overall == CacheStatistics(diskHits: 1, misses: 1))

        fixture.store.resetStatistics()
        #expect(fixture.store.statistics().overall == .zero)
        _ = try cache.get(1)
        #expect(fixture.store.statistics()["n"] == CacheStatistics(diskHits: 1))
        #expect(cache.counters.snapshot().diskHits == 3, "the counters themselves never go down")
    }

    @Test func countersAreExactUnderConcurrency() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("hot", key: Int.self, value: Int.self)
        try cache.set((0..<100).map { (key: $0, value: $0) })
        let threads = 8
        let rounds = 500
        let failures = Mutex<[String]>([])
        let store = fixture.store
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            do {
                // Each handle made here shares the namespace's counters.
                let handle = try store.cache("hot", key: Int.self, value: Int.self)
                for round in 0..<rounds {
                    _ = try handle.get(round % 100)
                    _ = try handle.get(1000 + round)
                    handle.counters.memoryHit()
                    if round % 10 == 0 { try handle.set(round, for: 10_000 + thread * rounds + round) }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let counts = cache.statistics()
        #expect(counts.diskHits == threads * rounds)
        #expect(counts.misses == threads * rounds)
        #expect(counts.memoryHits == threads * rounds)
        #expect(counts.sets == 100 + threads * rounds / 10)
    }

    @Test func sweepsAndEvictionsAreCountedWithTheirBytes() throws {
        let fixture = try TestStore()
        let limited = try fixture.store.dataCache(
            "limited", key: Int.self, policy: NamespacePolicy(expiration: .never, maxEntries: 3))
        for key in 0..<5 { try limited.set(Data(count: 10), for: key) }
        // Keys are stored as decimal text: one byte each, plus ten value bytes.
        #expect(limited.statistics().evictions == 2)
        #expect(limited.statistics().evictedBytes == 22)

        let short = try fixture.store.cache("short", key: Int.self, value: Int.self)
        try short.set((0..<7).map { (key: $0, value: $0) }, expiration: .after(.seconds(1)))
        fixture.clock.advance(by: .seconds(1) + NamespacePolicy.defaultStaleWindow)
        #expect(try fixture.store.sweepExpired() == 7)
        #expect(short.statistics().expirations == 7)
        #expect(fixture.store.statistics().overall.expirations == 7)
    }

    @Test func evictionInANamespaceThisStoreNeverOpenedIsCountedUnderItsName() throws {
        let fixture = try TestStore { $0.maxEntries = 2 }
        let other = try fixture.reopen()
        try other.cache("theirs", key: Int.self, value: Int.self).set([(key: 1, value: 1), (key: 2, value: 2)])
        try fixture.store.cache("mine", key: Int.self, value: Int.self).set(1, for: 1)
        #expect(fixture.store.statistics()["theirs"].evictions == 1)
    }

    @Test func disabledStatisticsCountNothingAndWriteNoTelemetry() throws {
        let fixture = try TestStore { $0.statistics = .disabled }
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try cache.set(1, for: 1)
        _ = try cache.get(1)
        _ = try cache.get(2)
        #expect(fixture.store.statistics().overall == .zero)
        #expect(cache.statistics() == .zero)
        try fixture.store.flushTelemetry()
        try fixture.store.close()
        #expect(try fixture.scalar("SELECT count(*) FROM stats") == 0)
        #expect(try fixture.scalar("SELECT count(*) FROM clients") == 0)
    }

    @Test func aReadOnlyStoreCountsInMemoryAndNeverWrites() throws {
        let fixture = try TestStore()
        try fixture.store.cache("n", key: Int.self, value: Int.self).set(1, for: 1)
        try fixture.store.close()
        try rawExecute(path: fixture.path, "PRAGMA wal_checkpoint(TRUNCATE)")
        let before = fileBytes(fixture.path)

        var options = StoreOptions.inspection()
        options.clock = fixture.clock
        options.statistics = StatisticsOptions()  // even asked to write telemetry, it cannot
        let reader = try CacheStore(path: fixture.path, options: options)
        let cache = try reader.cache("n", key: Int.self, value: Int.self)
        #expect(try cache.get(1) == 1)
        #expect(try cache.get(2) == nil)
        #expect(reader.statistics()["n"] == CacheStatistics(diskHits: 1, misses: 1))
        try reader.flushTelemetry()
        _ = try reader.telemetry(since: .distantPast)
        _ = try reader.clients()
        _ = try reader.size()
        #expect(reader.clientID == nil)
        try reader.close()
        #expect(fileBytes(fixture.path) == before)
        #expect(CacheSize.bytes(ofFileAt: fixture.path + "-wal") == 0)
    }

    @Test func sizeReportsTheFileTheWALAndThePayloadApart() throws {
        let fixture = try TestStore { $0.statistics.telemetryInterval = nil }
        let cache = try fixture.store.dataCache("blobs", key: String.self)
        try cache.set([(key: "a", value: Data(count: 1000)), (key: "bb", value: Data(count: 2000))])
        let size = try fixture.store.size()
        #expect(size.payloadBytes == 3003)
        #expect(size.walBytes > 0, "the writes are still in the WAL")
        #expect(size.fileBytes > 0)
        #expect(size.diskBytes == size.fileBytes + size.walBytes)
        try rawExecute(path: fixture.path, "PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(try fixture.store.size().walBytes == 0)
        #expect(try fixture.store.size().payloadBytes == 3003)
    }
}
