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
        var fullDisk = BatchSizer.FullDiskLimit()
        while true {
            let (removed, isLast): (Int, Bool)
            do {
                (removed, isLast) = try sizer.batch(
                    on: database, usingReserve: true, budget: CacheStore.actionBatchBudget, limit: fullDisk.value
                ) { connection, limit in
                    let removed = try batch(connection, limit)
                    return ((removed, removed < limit), removed)
                }
            } catch CacheError.diskFull where fullDisk.shrink(after: min(sizer.size, fullDisk.value)) {
                continue
            }
            total += removed
            if isLast { return total }
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
