/// The one loop for batched writes: a sweep, eviction to the size limits, an invalidation by
/// keys, prefix or tag, an admin action and its undo, a purge, an integrity repair and the
/// access log's slices all run here. Each batch is one write transaction; between batches the
/// app's writes get the writer.
///
/// A runner sizes its batches one of two ways (``Sizing``): learned by a ``BatchSizer`` so
/// that one batch takes about a time budget, or a fixed number of rows. A run can stop at a
/// deadline (checked before each batch) or be cancelled after any batch (`committed` returns
/// `false`), and on a full disk it retries a batch smaller, down to one row (see
/// ``FullDiskStep``).
struct BatchRunner: Sendable {
    /// How many rows a batch handles.
    enum Sizing: Sendable {
        /// Learned by the sizer so that a batch takes about `budget`.
        case learned(BatchSizer, budget: Duration)
        /// Always this many: for work whose time does not follow its row count, or that only
        /// has to keep the app's writes from waiting long.
        case fixed(Int)
    }

    /// What a run does after a batch did not fit on a full disk (the batch was rolled back).
    enum FullDiskStep {
        /// Try the same batch again at the same size: the caller changed how it works (an
        /// action stops keeping an undo copy), so answer it once, not every time.
        case retry
        /// Try it with a quarter of the rows, down to one row; one row that does not fit
        /// throws ``CacheError/diskFull(path:)``.
        case shrink
        /// Throw ``CacheError/diskFull(path:)`` at once.
        case fail
    }

    /// How a run ended.
    enum Ending: Equatable {
        /// A batch said it was the last.
        case finished
        /// `committed` returned `false`.
        case cancelled
        /// The deadline passed before a batch.
        case pastDeadline
    }

    let database: Database
    let sizing: Sizing

    /// A runner on `database` whose batches `sizer` sizes to take about `budget` each.
    init(database: Database, sizer: BatchSizer, budget: Duration = CacheStore.actionBatchBudget) {
        self.init(database: database, sizing: .learned(sizer, budget: budget))
    }

    /// A runner on `database` with batches of `sizing`.
    init(database: Database, sizing: Sizing) {
        self.database = database
        self.sizing = sizing
    }

    /// The size of the next batch (before any full-disk limit).
    var size: Int {
        switch sizing {
        case .learned(let sizer, _): sizer.size
        case .fixed(let rows): rows
        }
    }

    /// Runs `batch` (with a limit of rows to handle) in its own write transaction until it
    /// says it was the last, `committed` (which gets each batch's result once its transaction
    /// committed) returns `false`, or `deadline` passes. `usingReserve` lets the batches use
    /// the room kept for removals (see ``StoreOptions/diskReserve``); `onDiskFull` says what
    /// to do after a batch that did not fit was rolled back.
    @discardableResult
    func run<Result: Sendable>(
        usingReserve: Bool = true, deadline: ContinuousClock.Instant? = nil,
        onDiskFull: () -> FullDiskStep = { .shrink },
        batch: (SQLiteConnection, Int) throws -> (result: Result, handled: Int, isLast: Bool),
        committed: (Result) throws -> Bool = { _ in true }
    ) throws -> Ending {
        var fullDisk = BatchSizer.FullDiskLimit()
        while true {
            if let deadline, ContinuousClock.now >= deadline { return .pastDeadline }
            let (result, isLast): (Result, Bool)
            do {
                (result, isLast) = try once(usingReserve: usingReserve, limit: fullDisk.value) { connection, limit in
                    let (result, handled, isLast) = try batch(connection, limit)
                    return ((result, isLast), handled)
                }
            } catch CacheError.diskFull(let path) {
                switch onDiskFull() {
                case .retry: continue
                case .shrink where fullDisk.shrink(after: min(size, fullDisk.value)): continue
                case .shrink, .fail: throw CacheError.diskFull(path: path)
                }
            }
            guard try committed(result) else { return .cancelled }
            if isLast { return .finished }
            fullDisk.widen()
        }
    }

    /// One batch of at most `limit` rows, as one write transaction.
    private func once<T: Sendable>(
        usingReserve: Bool, limit: Int, _ body: (SQLiteConnection, Int) throws -> (result: T, handled: Int)
    ) throws -> T {
        switch sizing {
        case .learned(let sizer, let budget):
            return try sizer.batch(on: database, usingReserve: usingReserve, budget: budget, limit: limit, body)
        case .fixed(let rows):
            return try database.write(usingReserve: usingReserve) { connection in
                try connection.writeTransaction { try body(connection, min(rows, limit)).result }
            }
        }
    }

    /// Runs `batch` (with a row limit) until it handles fewer rows than its limit; returns the
    /// total it handled.
    func runUntilShort(
        usingReserve: Bool = true, onDiskFull: () -> FullDiskStep = { .shrink },
        batch: (SQLiteConnection, Int) throws -> Int
    ) throws -> Int {
        var total = 0
        try run(
            usingReserve: usingReserve, onDiskFull: onDiskFull,
            batch: { connection, limit in
                let handled = try batch(connection, limit)
                return (handled, handled, handled < limit)
            },
            committed: {
                total += $0
                return true
            })
        return total
    }

    /// Deletes retired partitions and the trash of actions run before `cutoff`, in batches;
    /// returns how many entries it deleted from partitions (kept expiry times are not counted).
    func purgePartitions(before cutoff: Int64) throws -> Int {
        _ = try runUntilShort { try $0.purgeExpiryTrash(before: cutoff, limit: $1) }
        var deleted = 0
        for partition in try database.read({ try $0.expiredPartitions(before: cutoff) }) {
            deleted += try runUntilShort { try $0.deletePartitionBatch(partition, limit: $1) }
        }
        return deleted
    }
}
