import Foundation

/// Deletes expired entries (only those past their stale window when asked to keep it), one
/// namespace at a time, in batches that each commit on their own (so the app's writes
/// interleave) and are sized by a ``BatchSizer`` (run by a ``BatchRunner``; on a full disk a
/// batch that does not fit is tried smaller).
/// Counts what it removes as expirations.
///
/// Its batches leave the WAL to maintenance's own connection, which checkpoints passively
/// after each one (see ``BatchSizer``): the pages a long sweep writes are copied into the file
/// outside the writer lock, while the next batch runs.
struct ExpirySweeper: Sendable {
    /// What a sweep did.
    struct Outcome {
        var removed = 0
        /// `false` when the deadline came before everything expired was removed.
        var finished = true
    }

    let database: Database
    let statistics: StatisticsRegistry
    let clock: any CacheClock
    let sizer: BatchSizer

    /// Sweeps the namespaces until nothing expired is left or `deadline` passes. With
    /// `keepingStaleWindow`, entries still inside their stale window stay (for stale reads).
    func sweep(
        namespaceIDs: [Int64], keepingStaleWindow: Bool, batchBudget: Duration,
        deadline: ContinuousClock.Instant? = nil
    ) throws -> Outcome {
        var outcome = Outcome()
        let batches = BatchRunner(database: database, sizer: sizer, budget: batchBudget)
        for namespaceID in namespaceIDs {
            let counters = try statistics.counters(namespaceID: namespaceID) { id in
                try database.read { try $0.namespaceName(id: id) }
            }
            let ending = try batches.run(deadline: deadline) { connection, limit in
                let removed = try connection.deleteExpired(
                    namespaceID: namespaceID, now: clock.nowMilliseconds(),
                    keepingStaleWindow: keepingStaleWindow, limit: limit)
                return (removed, removed, removed < limit)
            } committed: { removed in
                if removed > 0 { counters?.expired(count: removed) }
                outcome.removed += removed
                return true
            }
            if ending == .pastDeadline {
                outcome.finished = false
                return outcome
            }
        }
        return outcome
    }

    /// The share of expired entries among up to `sampleSize` consecutive entries from a
    /// random position (two index seeks and a short range scan), or `nil` when there are none.
    func sampleExpiredShare(sampleSize: Int = 256) throws -> Double? {
        let now = clock.nowMilliseconds()
        return try database.read { connection in
            guard let range = try connection.entryIDRange() else { return nil }
            let start = Int64.random(in: range)
            let sample = try connection.purgeableSample(from: start, count: sampleSize, now: now)
            guard sample.rows > 0 else { return nil }
            return Double(sample.purgeable) / Double(sample.rows)
        }
    }
}
