import CacheDeckTestSupport
import Foundation
import Synchronization
import Testing

@testable import CacheCore

/// Counts loader calls and can be told to fail.
private final class Origin: Sendable {
    struct Down: Error, Equatable {}
    private let state = Mutex((calls: 0, failing: false, version: 1))

    var calls: Int { state.withLock { $0.calls } }
    func fail(_ failing: Bool) { state.withLock { $0.failing = failing } }
    func bump() { state.withLock { $0.version += 1 } }

    func load(_ key: String) async throws -> String {
        let (failing, version) = state.withLock { state in
            state.calls += 1
            return (state.failing, state.version)
        }
        if failing { throw Down() }
        return "\(key)-v\(version)"
    }
}

/// A value shared by concurrent test closures.
private final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<T: Sendable>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
}

@Suite struct LoaderTests {
    @Test func aThousandConcurrentCallersShareOneLoad() async throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("users", key: String.self, value: String.self, policy: .hybrid)
        let origin = Origin()
        let gate = Locked(false)
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<1000 {
                group.addTask {
                    try await cache.value(for: "u1") { key in
                        // Hold the load open until every caller has had the chance to queue on it.
                        while !gate.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
                        return try await origin.load(key)
                    }
                }
            }
            Task {
                while cache.runtime.loads.isLoading("u1") == false { try await Task.sleep(for: .milliseconds(1)) }
                try await Task.sleep(for: .milliseconds(50))
                gate.withLock { $0 = true }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(values.count == 1000 && Set(values) == ["u1-v1"])
        #expect(origin.calls == 1)  // a caller arriving after the load finds the stored value
        #expect(try cache.get("u1") == "u1-v1")
    }

    @Test func aLoadedValueIsStoredWithThePolicy() async throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache(
            "users", key: String.self, value: String.self, policy: .default.expiring(.after(.seconds(60))))
        let origin = Origin()
        #expect(try await cache.value(for: "a", orLoad: origin.load) == "a-v1")
        #expect(try await cache.value(for: "a", orLoad: origin.load) == "a-v1")
        #expect(origin.calls == 1)
        fixture.clock.advance(by: .seconds(60))
        origin.bump()
        #expect(try await cache.value(for: "a", orLoad: origin.load) == "a-v2")
    }

    @Test func aFailingOriginServesTheStaleValueAndBacksOff() async throws {
        let fixture = try TestStore { $0.loadBackoff = LoadBackoff(initial: .seconds(1), maximum: .seconds(4)) }
        var policy = NamespacePolicy.default.expiring(.after(.seconds(10)))
        policy.staleWindow = .seconds(60)
        let cache = try fixture.store.cache("rates", key: String.self, value: String.self, policy: policy)
        let origin = Origin()
        _ = try await cache.value(for: "eur", orLoad: origin.load)
        fixture.clock.advance(by: .seconds(11))
        origin.fail(true)

        let stale = try await cache.read("eur", orLoad: origin.load)
        #expect(stale.value == "eur-v1" && stale.isStale)
        #expect(origin.calls == 2)
        // Backing off: no call for a second, then 2 s, then 4 s (the maximum).
        _ = try await cache.read("eur", orLoad: origin.load)
        #expect(origin.calls == 2)
        for (wait, calls) in [(1, 3), (1, 3), (1, 4), (3, 4), (1, 5), (4, 6)] {
            fixture.clock.advance(by: .seconds(wait))
            _ = try await cache.read("eur", orLoad: origin.load)
            #expect(origin.calls == calls)
        }
        origin.fail(false)
        fixture.clock.advance(by: .seconds(4))
        let fresh = try await cache.read("eur", orLoad: origin.load)
        #expect(fresh.value == "eur-v1" && !fresh.isStale)
        #expect(origin.calls == 7)
    }

    @Test func loaderReadsCountAsHitsMissesAndStaleHits() async throws {
        let fixture = try TestStore()
        var policy = NamespacePolicy.default.expiring(.after(.seconds(10)))
        policy.staleWindow = .seconds(60)
        let cache = try fixture.store.cache("rates", key: String.self, value: String.self, policy: policy)
        let origin = Origin()
        _ = try await cache.value(for: "eur", orLoad: origin.load)
        _ = try await cache.value(for: "eur", orLoad: origin.load)
        fixture.clock.advance(by: .seconds(11))
        origin.fail(true)
        #expect(try await cache.read("eur", orLoad: origin.load).isStale)
        await #expect(throws: Origin.Down.self) { try await cache.value(for: "usd", orLoad: origin.load) }
        let counts = cache.statistics()
        #expect(counts.hits == 1 && counts.staleHits == 1 && counts.misses == 2)
    }

    /// Stale-if-error works with `.default`: no stale window needs to be configured.
    @Test func theDefaultPolicyServesStaleIfTheOriginFails() async throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("rates", key: String.self, value: String.self, policy: .default)
        let origin = Origin()
        #expect(try await cache.value(for: "eur", orLoad: origin.load) == "eur-v1")
        fixture.clock.advance(by: .seconds(24 * 3600 + 60))
        origin.fail(true)
        let read = try await cache.read("eur", orLoad: origin.load)
        #expect(read.value == "eur-v1" && read.isStale)
    }

    @Test func withoutAStaleValueTheLoadersErrorIsThrown() async throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("rates", key: String.self, value: String.self)
        let origin = Origin()
        origin.fail(true)
        await #expect(throws: Origin.Down.self) { try await cache.value(for: "eur", orLoad: origin.load) }
        await #expect(throws: Origin.Down.self) { try await cache.value(for: "eur", orLoad: origin.load) }
        #expect(origin.calls == 1)
    }

    @Test func anOldValueIsServedAtOnceAndRefreshedInTheBackground() async throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache(
            "users", key: String.self, value: String.self, policy: .hybrid.expiring(.after(.seconds(60))))
        let origin = Origin()
        _ = try await cache.value(for: "a", refreshAfter: .seconds(30), orLoad: origin.load)
        origin.bump()
        fixture.clock.advance(by: .seconds(29))
        #expect(try await cache.value(for: "a", refreshAfter: .seconds(30), orLoad: origin.load) == "a-v1")
        #expect(origin.calls == 1)
        fixture.clock.advance(by: .seconds(1))
        #expect(try await cache.value(for: "a", refreshAfter: .seconds(30), orLoad: origin.load) == "a-v1")
        #expect(try await eventually { () async throws in try cache.get("a") == "a-v2" } != nil)
        #expect(origin.calls == 2)
    }

    @Test func warmingLoadsWhatIsMissingWithBoundedConcurrency() async throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("users", key: Int.self, value: Int.self)
        try cache.set(0, for: 0)
        let running = Locked((now: 0, peak: 0))
        let report = await cache.warm(Array(0..<40), concurrency: 3) { key in
            running.withLock {
                $0.now += 1
                $0.peak = max($0.peak, $0.now)
            }
            try await Task.sleep(for: .milliseconds(2))
            running.withLock { $0.now -= 1 }
            if key == 13 { throw Origin.Down() }
            return key * 2
        }
        #expect(report == WarmingReport(loaded: 38, alreadyCached: 1, failed: 1))
        #expect(running.withLock { $0.peak } <= 3)
        #expect(try cache.get(39) == 78)
    }
}

@Suite struct LoaderStatisticsTests {
    @Test func loaderReadsCountHitsMissesStaleHitsAndLoads() async throws {
        let fixture = try TestStore()
        var policy = NamespacePolicy.hybrid.expiring(.after(.seconds(10)))
        policy.staleWindow = .seconds(60)
        let cache = try fixture.store.cache("rates", key: String.self, value: String.self, policy: policy)
        let origin = Origin()
        _ = try await cache.value(for: "eur", orLoad: origin.load)  // miss, loaded
        _ = try await cache.value(for: "eur", orLoad: origin.load)  // memory hit
        fixture.clock.advance(by: .seconds(11))
        origin.fail(true)
        _ = try await cache.read("eur", orLoad: origin.load)  // stale hit after a failed load
        await #expect(throws: Origin.Down.self) { try await cache.value(for: "usd", orLoad: origin.load) }
        let statistics = cache.statistics()
        #expect(statistics.misses == 2 && statistics.memoryHits == 1 && statistics.staleHits == 1)
        #expect(statistics.loadSuccesses == 1 && statistics.loadFailures == 2 && statistics.sets == 1)
    }
}
