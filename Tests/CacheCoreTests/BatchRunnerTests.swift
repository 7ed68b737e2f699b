import Testing

@testable import CacheCore

/// The one loop for batched writes: sizing, cancel, deadline and the full-disk steps. Batches
/// run on a real store's writer; a batch "does not fit" when it throws the full-disk error.
@Suite struct BatchRunnerTests {
    @Test func aFixedRunnerGivesEachBatchItsSizeUntilOneIsShort() throws {
        let fixture = try TestStore()
        let runner = BatchRunner(database: fixture.store.database, sizing: .fixed(40))
        var limits: [Int] = []
        var rows = 100
        let total = try runner.runUntilShort { _, limit in
            limits.append(limit)
            let taken = min(rows, limit)
            rows -= taken
            return taken
        }
        #expect(total == 100)
        #expect(limits == [40, 40, 40])
    }

    @Test func committedFalseCancelsAfterThatBatch() throws {
        let fixture = try TestStore()
        let runner = BatchRunner(database: fixture.store.database, sizing: .fixed(10))
        var batches = 0
        let ending = try runner.run { _, limit in
            batches += 1
            return (batches, limit, false)
        } committed: {
            $0 < 3
        }
        #expect(ending == .cancelled)
        #expect(batches == 3)
    }

    @Test func aPassedDeadlineRunsNoBatch() throws {
        let fixture = try TestStore()
        var batches = 0
        let ending = try fixture.store.deleter.run(deadline: .now) { _, _ in
            batches += 1
            return (0, 0, true)
        }
        #expect(ending == .pastDeadline)
        #expect(batches == 0)
    }

    @Test func aBatchThatDoesNotFitIsTriedAQuarterAsLargeThenTheBatchesDoubleAgain() throws {
        let fixture = try TestStore()
        let runner = BatchRunner(database: fixture.store.database, sizing: .fixed(1000))
        var limits: [Int] = []
        var rows = 1200
        let total = try runner.runUntilShort { _, limit in
            limits.append(limit)
            if limit > 100 && limits.count < 4 { throw CacheError.diskFull(path: "test") }
            let taken = min(rows, limit)
            rows -= taken
            return taken
        }
        #expect(total == 1200)
        #expect(limits == [1000, 250, 62, 124, 248, 496, 992])
    }

    @Test func aRowThatDoesNotFitThrowsAndRetryOrFailAreTheCallersChoice() throws {
        let fixture = try TestStore()
        let runner = BatchRunner(database: fixture.store.database, sizing: .fixed(4))
        var limits: [Int] = []
        #expect(throws: CacheError.self) {
            try runner.runUntilShort { _, limit in
                limits.append(limit)
                throw CacheError.diskFull(path: "test")
            }
        }
        #expect(limits == [4, 1], "shrinks to one row, then gives up")

        limits = []
        #expect(throws: CacheError.self) {
            try runner.runUntilShort(
                onDiskFull: { .fail },
                batch: { _, limit in
                    limits.append(limit)
                    throw CacheError.diskFull(path: "test")
                })
        }
        #expect(limits == [4], "fails at once")

        limits = []
        var retries = 0
        let total = try runner.runUntilShort(
            onDiskFull: {
                retries += 1
                return .retry
            },
            batch: { _, limit in
                limits.append(limit)
                if limits.count == 1 { throw CacheError.diskFull(path: "test") }
                return 0
            })
        #expect(total == 0 && retries == 1)
        #expect(limits == [4, 4], "tried again at the same size")
    }
}
