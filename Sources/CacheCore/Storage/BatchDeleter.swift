/// Deletes rows in batches, each one write transaction sized by ``sizer`` to take about
/// ``CacheStore/actionBatchBudget``. The store's removals (invalidations, the admin purge)
/// and maintenance's trash purge share one, so they learn one size.
struct BatchDeleter: Sendable {
    let database: Database
    /// Sizes the batches that delete partitions, kept expiry times and selected entries.
    let sizer: BatchSizer

    /// Runs `batch` (with a row limit) in its own transaction until it removes fewer than its
    /// limit; returns the total. On a full disk a batch that does not fit is tried again with
    /// a smaller limit, down to one row.
    func deleteInBatches(_ batch: (SQLiteConnection, Int) throws -> Int) throws -> Int {
        var total = 0
        try inBatches { connection, limit in
            let removed = try batch(connection, limit)
            return (removed, removed, removed < limit)
        } committed: {
            total += $0
        }
        return total
    }

    /// Runs `batch` (with a limit of rows to handle) in its own transaction until it says it
    /// was the last; `committed` gets each batch's result once its transaction committed. On a
    /// full disk a batch that does not fit is rolled back and tried again with a smaller limit,
    /// down to one row.
    func inBatches<Result: Sendable>(
        _ batch: (SQLiteConnection, Int) throws -> (result: Result, handled: Int, isLast: Bool),
        committed: (Result) -> Void
    ) throws {
        var fullDisk = BatchSizer.FullDiskLimit()
        while true {
            let (result, isLast): (Result, Bool)
            do {
                (result, isLast) = try sizer.batch(
                    on: database, usingReserve: true, budget: CacheStore.actionBatchBudget, limit: fullDisk.value
                ) { connection, limit in
                    let (result, handled, isLast) = try batch(connection, limit)
                    return ((result, isLast), handled)
                }
            } catch CacheError.diskFull where fullDisk.shrink(after: min(sizer.size, fullDisk.value)) {
                continue
            }
            committed(result)
            if isLast { return }
            fullDisk.widen()
        }
    }

    /// Deletes retired partitions and the trash of actions run before `cutoff`, in batches;
    /// returns how many entries it deleted from partitions (kept expiry times are not counted).
    func purgePartitions(before cutoff: Int64) throws -> Int {
        _ = try deleteInBatches { try $0.purgeExpiryTrash(before: cutoff, limit: $1) }
        var deleted = 0
        for partition in try database.read({ try $0.expiredPartitions(before: cutoff) }) {
            deleted += try deleteInBatches { try $0.deletePartitionBatch(partition, limit: $1) }
        }
        return deleted
    }
}
