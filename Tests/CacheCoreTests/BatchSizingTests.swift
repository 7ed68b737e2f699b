import Foundation
import Synchronization
import Testing

@testable import CacheCore

/// Batches of sweeps, admin actions, their undo and purges are sized by one ``BatchSizer``
/// mechanism that aims at a time budget per write transaction. The time is injected: each
/// batch "takes" whatever the stepping stopwatch says.
@Suite struct BatchSizingTests {
    @Test func theSizeScalesTowardsTheBudgetAtMostTwofoldPerBatch() {
        let sizer = BatchSizer(checkpointer: Checkpointer(path: "unused.sqlite"))
        #expect(sizer.size == 1000)
        sizer.learn(requested: 1000, handled: 1000, elapsed: .milliseconds(5), budget: .milliseconds(25))
        #expect(sizer.size == 2000, "grows at most twofold")
        sizer.learn(requested: 2000, handled: 2000, elapsed: .milliseconds(40), budget: .milliseconds(25))
        #expect(sizer.size == 1250)
        sizer.learn(requested: 1250, handled: 10, elapsed: .milliseconds(1), budget: .milliseconds(25))
        #expect(sizer.size == 1250, "a partial batch says nothing about speed")
        sizer.learn(requested: 1250, handled: 10, elapsed: .milliseconds(500), budget: .milliseconds(25))
        #expect(sizer.size == 625, "but a slow one still shrinks the next")
        for _ in 0..<20 { sizer.learn(requested: sizer.size, handled: sizer.size, elapsed: .seconds(1), budget: .zero) }
        #expect(sizer.size == 625, "no budget, no change")
        for _ in 0..<20 {
            sizer.learn(requested: sizer.size, handled: sizer.size, elapsed: .seconds(1), budget: .milliseconds(1))
        }
        #expect(sizer.size == BatchSizer.range.lowerBound)
        for _ in 0..<20 {
            sizer.learn(requested: sizer.size, handled: sizer.size, elapsed: .nanoseconds(1), budget: .seconds(1))
        }
        #expect(sizer.size == BatchSizer.range.upperBound)
    }

    @Test func aFullDiskQuartersTheBatchesOfARunDownToOneRowThenTheyDoubleAgain() {
        var limit = BatchSizer.FullDiskLimit()
        #expect(limit.value == .max)
        var shrunk = [limit.shrink(after: 1000)]
        #expect(limit.value == 250)
        shrunk.append(limit.shrink(after: 250))
        #expect(limit.value == 62)
        shrunk.append(limit.shrink(after: 3))
        #expect(limit.value == 1)
        shrunk.append(limit.shrink(after: 1))
        #expect(shrunk == [true, true, true, false], "a single row that does not fit cannot shrink")
        #expect(limit.value == 1)
        limit.widen()
        #expect(limit.value == 2)
        for _ in 0..<70 { limit.widen() }
        #expect(limit.value == .max)
    }

    @Test func anActionsBatchesGrowWhileTheyTakeLessThanTheBudget() throws {
        let fixture = try TestStore { $0.batchStopwatch = steppingStopwatch(by: CacheStore.actionBatchBudget / 4) }
        let tiles = try fixture.store.cache("tiles", key: Int.self, value: Int.self)
        try tiles.set((0..<10_000).map { (key: $0, value: $0) })
        var done: [Int] = []
        let outcome = try fixture.store.admin.run(.invalidate(.prefix(namespace: "tiles", prefix: ""))) {
            done.append($0.done)
            return true
        }
        #expect(done == [1000, 3000, 7000, 10_000])
        #expect(outcome.removed == 10_000)
        // Its undo uses the same sizer, which starts where the action left it.
        #expect(try fixture.store.admin.restore(outcome.auditID) == 10_000)
        #expect(fixture.store.moveBatches.size == 16_000)
        #expect(try tiles.count() == 10_000)
    }

    @Test func anActionsBatchesShrinkWhileTheyTakeLongerThanTheBudgetAndEachIsAudited() throws {
        let fixture = try TestStore { $0.batchStopwatch = steppingStopwatch(by: CacheStore.actionBatchBudget * 3) }
        let tiles = try fixture.store.cache("tiles", key: Int.self, value: Int.self)
        try tiles.set((0..<2500).map { (key: $0, value: $0) })
        var done: [Int] = []
        var audited: [Int64?] = []
        let outcome = try fixture.store.admin.run(.invalidate(.prefix(namespace: "tiles", prefix: ""))) {
            done.append($0.done)
            audited.append(try? fixture.scalar("SELECT entries FROM audit ORDER BY id DESC LIMIT 1"))
            return true
        }
        #expect(Array(done.prefix(6)) == [1000, 1500, 1750, 1875, 1975, 2075])
        #expect(done.last == 2500 && outcome.removed == 2500)
        #expect(audited == done.map { Int64($0) }, "the audit row counts every batch as it commits")
        #expect(fixture.store.moveBatches.size == BatchSizer.range.lowerBound)
        #expect(try fixture.store.admin.restore(outcome.auditID) == 2500)
        #expect(try tiles.count() == 2500)
    }

    @Test func sweepsActionsAndPurgesLearnTheirOwnSizes() throws {
        // Every batch takes 1 s: each full one halves the next, as does a slow partial one.
        let fixture = try TestStore { $0.batchStopwatch = steppingStopwatch(by: .seconds(1)) }
        let short = try fixture.store.cache("short", key: Int.self, value: Int.self)
        try short.set((0..<1200).map { (key: $0, value: $0) }, expiration: .after(.seconds(5)))
        fixture.clock.advance(by: .seconds(5) + NamespacePolicy.defaultStaleWindow)
        #expect(try fixture.store.sweepExpired() == 1200)
        #expect(fixture.store.services.maintenance.sweeper.sizer.size == 250, "batches of 1,000 then 500")
        #expect(fixture.store.moveBatches.size == BatchSizer.initial, "actions have a sizer of their own")

        let tiles = try fixture.store.cache("tiles", key: Int.self, value: Int.self)
        try tiles.set((0..<1500).map { (key: $0, value: $0) })
        #expect(try fixture.store.admin.run(.clear(namespace: "tiles")).removed == 1500)
        fixture.clock.advance(by: .seconds(1))
        #expect(try fixture.store.admin.purgeTrash(olderThan: .zero) == 1500)
        #expect(fixture.store.deleter.size == BatchSizer.range.lowerBound)
        #expect(fixture.store.moveBatches.size == BatchSizer.initial, "a clear moves its namespace in one step")
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 0)
    }
}

/// A stopwatch that moves on by `step` each time it is read, so every batch takes `step`.
func steppingStopwatch(by step: Duration) -> BatchSizer.Stopwatch {
    let now = Mutex(Duration.zero)
    return {
        now.withLock {
            $0 += step
            return $0
        }
    }
}
