@testable import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

@Suite("RedisAdmin: progress, stop, running actions and near caches", .enabled(if: redisAvailable))
struct RedisAdminRunTests {
    let fixture: RedisFixture
    init() throws { fixture = try RedisFixture() }

    func fill(_ store: RedisStore, count: Int) throws -> Cache<String, Int> {
        let cache = try store.cache("parts", key: String.self, value: Int.self)
        try cache.set((0..<count).map { (key: "p\($0)", value: $0) })
        return cache
    }

    @Test func progressIsReportedPerBatchAndAStopLeavesAnUndoableAction() throws {
        let store = try fixture.open()
        defer { store.close() }
        let cache = try fill(store, count: 2500)
        var reports: [ActionProgress] = []
        var recorded: [Int] = []
        let outcome = try store.admin.run(.invalidate(.prefix(namespace: "parts", prefix: "p"))) { progress in
            reports.append(progress)
            // The record is current after every batch (what a kill would leave).
            recorded.append((try? store.admin.auditLog(limit: 1).first?.entries) ?? -1)
            return reports.count < 2
        }
        #expect(outcome.isCancelled && reports.count == 2 && reports.allSatisfy { $0.total == 2500 })
        #expect(reports.map(\.done) == recorded && outcome.removed == reports[1].done && outcome.removed < 2500)
        #expect(try cache.count() == 2500 - outcome.removed)
        let record = try #require(try store.admin.auditLog().first)
        #expect(record.entries == outcome.removed && record.finishedAt != nil && record.canUndo)
        #expect(try store.admin.restore(outcome.auditID) == outcome.removed)
        #expect(try cache.count() == 2500)
    }

    @Test func aRunningActionCannotBeUndoneButAKilledOnesRecordCan() throws {
        let store = try fixture.open()
        defer { store.close() }
        let cache = try fill(store, count: 1500)
        var refusal: (any Error)?
        _ = try store.admin.run(.invalidate(.prefix(namespace: "parts", prefix: ""))) { _ in
            if refusal == nil, let running = try? store.admin.auditLog(limit: 1).first {
                #expect(running.finishedAt == nil)
                do { try store.admin.restore(running.id) } catch { refusal = error }
            }
            return true
        }
        #expect("\(refusal.map { "\($0)" } ?? "")".contains("is still running (pid \(getpid()))"))

        // A record left by a process that died mid-way says what it moved, and can be undone.
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try ProcessLauncher.run(dead)
        dead.waitUntilExit()
        let origin = ActionOrigin(
            user: "ops", host: ProcessInfo.processInfo.hostName, pid: dead.processIdentifier, program: "gone")
        try store.admin.restore(try #require(try store.admin.auditLog().first?.id))
        let killed = try store.admin.run(.invalidate(.prefix(namespace: "parts", prefix: "")), origin: origin)
        try fixture.cli("HDEL", fixture.keys.audit(killed.auditID), "finished")
        let record = try #require(try store.admin.auditLog().first)
        #expect(record.finishedAt == nil && record.entries == 1500 && record.origin == origin)
        #expect(try store.admin.restore(killed.auditID) == 1500 && cache.count() == 1500)
    }

    @Test func everyNearCacheFollowsAClearAndItsUndo() throws {
        try fixture.withTwoHosts { a, b in
            let onA = try a.cache("colors", key: Int.self, value: String.self, policy: .hybrid)
            let onB = try b.cache("colors", key: Int.self, value: String.self, policy: .hybrid)
            try onA.set("red", for: 1)
            try onA.set("blue", for: 2)
            try b.synchronize()
            #expect(try onB.get(1) == "red" && onB.get(2) == "blue" && onB.memoryUsage.entries == 2)

            let cleared = try a.admin.run(.clear(namespace: "colors"))
            #expect(eventually { onB.memoryUsage.entries == 0 } != nil)
            #expect(try onB.get(1) == nil)
            try onA.set("green", for: 2)
            try b.synchronize()
            #expect(try onB.get(2) == "green")
            try a.admin.restore(cleared.auditID)
            try b.synchronize()
            #expect(try onB.get(1) == "red" && onB.get(2) == "green")

            let removed = try a.admin.run(.invalidate(.key(namespace: "colors", key: "1")))
            try b.synchronize()
            #expect(try onB.get(1) == nil)
            try a.admin.restore(removed.auditID)
            try b.synchronize()
            #expect(try onB.get(1) == "red")
        }
    }
}
