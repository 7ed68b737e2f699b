import CacheDeckTestSupport
import Foundation
import MetricsTestKit
import Testing

@testable import CacheCore

@Suite struct TelemetryTests {
    @Test func flushedCountersAreVisibleToAnotherStoreOnTheFile() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("colors", key: Int.self, value: String.self)
        try cache.set("red", for: 1)
        for _ in 0..<3 { _ = try cache.get(1) }
        _ = try cache.get(2)
        try fixture.store.flushTelemetry()

        let console = try CacheStore(path: fixture.path, options: .inspection())
        let telemetry = try console.telemetry(since: Date(timeIntervalSince1970: 0))
        #expect(telemetry.total == CacheStatistics(diskHits: 3, misses: 1, sets: 1))
        #expect(telemetry.namespaces["colors"]?.count == 1)
        let clientID = try #require(fixture.store.clientID)
        #expect(telemetry.processes.keys.sorted() == [clientID])

        // Later counts land on top; each flush writes only what is new.
        _ = try cache.get(1)
        try fixture.store.flushTelemetry()
        try fixture.store.flushTelemetry()
        #expect(try console.telemetry(since: .distantPast).total.diskHits == 4)
    }

    @Test func seriesAreBucketedPerNamespaceAndPerProcess() throws {
        // Background heartbeats only at open, so every flush below is the test's.
        let fixture = try TestStore { $0.statistics.telemetryInterval = .seconds(3600) }
        let second = try fixture.reopen { $0.statistics.telemetryInterval = .seconds(3600) }
        let start = Date(millisecondsSince1970: fixture.clock.nowMilliseconds())
        let mine = try fixture.store.cache("a", key: Int.self, value: Int.self)
        let theirs = try second.cache("b", key: Int.self, value: Int.self)
        for tick in 0..<3 {
            for _ in 0...tick { _ = try mine.get(1) }
            _ = try theirs.get(1)
            try fixture.store.flushTelemetry()
            fixture.clock.advance(by: .milliseconds(1000))
        }
        try second.flushTelemetry()

        let telemetry = try fixture.store.telemetry(since: start)
        let a = try #require(telemetry.namespaces["a"])
        #expect(a.map(\.statistics.misses) == [1, 2, 3])
        #expect(a.map(\.duration) == [.seconds(1), .seconds(1), .seconds(1)])
        #expect(a.map(\.start) == (0..<3).map { start.addingTimeInterval(Double($0)) })
        #expect(a[2].requestsPerSecond == 3)
        #expect(telemetry.namespaces["b"]?.map(\.statistics.misses) == [3], "flushed once, at the end")
        let myID = try #require(fixture.store.clientID)
        let theirID = try #require(second.clientID)
        #expect(myID != theirID)
        #expect(telemetry.processes[myID]?.map(\.statistics.requests) == [1, 2, 3])
        #expect(telemetry.processes[theirID]?.map(\.statistics.requests) == [3])

        let coarse = try fixture.store.telemetry(since: start, resolution: .seconds(60))
        #expect(coarse.overall.count == 1)
        #expect(coarse.overall.first?.statistics.misses == 9)
        #expect(coarse.overall.first?.duration == .seconds(60))
        let last = try fixture.store.telemetry(since: start.addingTimeInterval(3))
        #expect(last.overall.map(\.statistics.misses) == [3], "only the other store's flush at the end")
    }

    @Test func clientsRegisterWithAHeartbeatAndStopOnClose() throws {
        let fixture = try TestStore { $0.statistics.telemetryInterval = .seconds(3600) }
        try fixture.store.flushTelemetry()
        let clients = try fixture.store.clients()
        let me = try #require(clients.first { $0.id == fixture.store.clientID })
        #expect(me.pid == getpid())
        #expect(me.host == ProcessIdentity.hostName)
        #expect(me.program == ProcessInfo.processInfo.processName)
        #expect(me.isLive && me.stoppedAt == nil)
        #expect(me.heartbeatInterval == .seconds(3600))

        fixture.clock.advance(by: .seconds(3 * 3600 + 1))
        #expect(try fixture.store.clients().first { $0.id == me.id }?.isLive == false, "three heartbeats missed")
        try fixture.store.flushTelemetry()
        let beat = try #require(try fixture.store.clients().first { $0.id == me.id })
        #expect(beat.isLive && beat.lastSeen == Date(millisecondsSince1970: fixture.clock.nowMilliseconds()))

        try fixture.store.close()
        let reader = try CacheStore(path: fixture.path, options: .inspection())
        let stopped = try #require(try reader.clients().first { $0.id == me.id })
        #expect(!stopped.isLive)
        #expect(stopped.stoppedAt == Date(millisecondsSince1970: fixture.clock.nowMilliseconds()))
    }

    @Test func aClientRemovedAsStaleRegistersAgain() throws {
        let fixture = try TestStore()
        try fixture.store.flushTelemetry()
        let first = try #require(fixture.store.clientID)
        try rawExecute(path: fixture.path, "DELETE FROM clients")
        try fixture.store.flushTelemetry()
        let second = try #require(fixture.store.clientID)
        #expect(second != first)
        #expect(try fixture.store.clients().map(\.id) == [second])
    }

    @Test func countersAreEmittedThroughSwiftMetrics() throws {
        let metrics = TestMetrics()
        let fixture = try TestStore { $0.statistics.metrics = .factory(metrics) }
        let cache = try fixture.store.cache("colors", key: Int.self, value: Int.self)
        try cache.set(1, for: 1)
        _ = try cache.get(1)
        _ = try cache.get(2)
        cache.counters.memoryHit()
        cache.counters.loadSucceeded(milliseconds: 2000)
        try fixture.store.flushTelemetry()
        _ = try cache.get(1)
        try fixture.store.flushTelemetry()

        let store = ("store", "cache")
        let namespace = ("namespace", "colors")
        #expect(try metrics.expectCounter("cachedeck_hits", [store, namespace, ("tier", "disk")]).totalValue == 2)
        #expect(try metrics.expectCounter("cachedeck_hits", [store, namespace, ("tier", "memory")]).totalValue == 1)
        #expect(try metrics.expectCounter("cachedeck_misses", [store, namespace]).totalValue == 1)
        #expect(try metrics.expectCounter("cachedeck_sets", [store, namespace]).totalValue == 1)
        #expect(
            try metrics.expectCounter("cachedeck_loads", [store, namespace, ("result", "success")]).totalValue == 1)
        #expect(try metrics.expectCounter("cachedeck_load_seconds", [store, namespace]).totalValue == 2)
    }

    @Test func aReadOnlyStoreReadsTelemetryAndClientsWrittenByOthers() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        _ = try cache.get(1)
        try fixture.store.close()

        let reader = try CacheStore(path: fixture.path, options: .inspection())
        #expect(try reader.telemetry(since: .distantPast).total.misses == 1)
        #expect(try reader.clients().count == 1)
        #expect(try reader.clients().first?.isLive == false)
    }

    @Test func theBackgroundReporterWritesOnItsOwn() throws {
        let fixture = try TestStore { $0.statistics.telemetryInterval = .milliseconds(20) }
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        _ = try cache.get(1)
        var options = StoreOptions.inspection()
        options.clock = fixture.clock
        let reader = try CacheStore(path: fixture.path, options: options)
        let seen = try eventually { try reader.telemetry(since: .distantPast).total.misses == 1 }
        #expect(seen != nil, "the reporter never flushed")
        #expect(try reader.clients().first?.isLive == true)
    }
}
