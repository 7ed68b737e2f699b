import CacheCoreService
import CacheDeckTestSupport
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import CacheCore

@Suite struct AsyncAndServiceTests {
    @Test func theAsyncFaceReadsWritesAndRemoves() async throws {
        let fixture = try TestStore()
        let parts = try fixture.store.cache("parts", key: String.self, value: Int.self).async
        try await parts.set(1, for: "a")
        try await parts.set([(key: "b", value: 2), (key: "c", value: 3)], tags: ["t"])
        #expect(try await parts.get("a") == 1)
        #expect(try await parts.contains("b"))
        #expect(try await parts.count() == 3)
        #expect(try await parts.remove("a"))
        #expect(try await parts.invalidate(tag: "t").totalRemoved == 2)
        #expect(try await parts.get("b") == nil)
        #expect(try await fixture.store.async.clear() == 0)
    }

    @Test func theAsyncLoadersLoadStoreAndServeStaleIfError() async throws {
        struct Down: Error {}
        let fixture = try TestStore()
        let rates = try fixture.store.cache("rates", key: String.self, value: Int.self).async
        #expect(try await rates.value(for: "eur") { _ in 7 } == 7)
        #expect(try await rates.get("eur") == 7, "the loaded value was stored")
        let report = await rates.warm(["eur", "usd"]) { _ in 9 }
        #expect(report == WarmingReport(loaded: 1, alreadyCached: 1, failed: 0))
        fixture.clock.advance(by: .seconds(24 * 3600))
        let stale = try await rates.read("eur") { _ in throw Down() }
        #expect(stale.value == 7 && stale.isStale)
    }

    @Test func memoryHitsAreAnsweredWithoutThePool() async throws {
        let fixture = try TestStore()
        let pool = BlockingIOPool(threads: 1)
        let cache = try fixture.store.cache("h", key: String.self, value: Int.self, policy: .hybrid)
        try cache.set(1, for: "a")
        let gate = DispatchSemaphore(value: 0)
        // Occupy the pool's only thread: a read that needed it could not finish.
        let occupied = Task { try await pool.run { gate.wait() } }
        #expect(try await cache.async(on: pool).get("a") == 1)
        #expect(cache.statistics().memoryHits == 1)
        gate.signal()
        try await occupied.value
    }

    /// Many concurrent async reads of the file never hold the cooperative pool: a task that
    /// needs a cooperative thread still runs while every pool thread is blocked in SQLite.
    @Test func blockedFileCallsLeaveTheCooperativePoolFree() async throws {
        let fixture = try TestStore()
        let pool = BlockingIOPool(threads: 2)
        let gate = DispatchSemaphore(value: 0)
        let waiting = (0..<8).map { _ in Task { try await pool.run { gate.wait() } } }
        let cache = try fixture.store.cache("d", key: Int.self, value: Int.self)
        try cache.set(7, for: 7)
        let cooperative = await Task.detached { 40 + 2 }.value
        #expect(cooperative == 42)
        for _ in waiting { gate.signal() }
        for task in waiting { try await task.value }
        #expect(try await cache.async(on: pool).get(7) == 7)
    }

    @Test func aCancelledTaskDoesNotStartItsCall() async throws {
        let pool = BlockingIOPool(threads: 1)
        let ran = Mutex(false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pool.run { ran.withLock { $0 = true } }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!ran.withLock { $0 })
    }

    @Test func theServiceRunsMaintenanceAndClosesOnGracefulShutdown() async throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache(
            "n", key: Int.self, value: Int.self, policy: NamespacePolicy.default.withoutStaleWindow())
        try cache.set((0..<50).map { ($0, $0) }, expiration: .seconds(1))
        fixture.clock.advance(by: .seconds(1))
        let service = CacheStoreService(store: fixture.store, maintenance: MaintenanceOptions(interval: .seconds(3600)))
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [service], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            // An async condition: the async overload, which holds no thread the service's task needs.
            // The limit is generous because the suite's synchronous tests (tmux, processes) hold
            // the cooperative pool's threads while they wait, and the group's task needs one of
            // them to start; alone, the first pass runs within milliseconds.
            let ran = await eventually(within: .seconds(600)) { () async in fixture.store.maintenanceStatus.passes == 1 }
            #expect(ran != nil, "the first pass runs at once")
            #expect(try fixture.scalar("SELECT count(*) FROM entries") == 0)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(!fixture.store.maintenanceStatus.isRunning)
        #expect(throws: CacheError.self) { try fixture.store.cache("n", key: Int.self, value: Int.self) }
        let inspector = try CacheStore(path: fixture.path, options: .inspection())
        #expect(try inspector.clients().allSatisfy { !$0.isLive }, "a clean close marks the process stopped")
    }
}
