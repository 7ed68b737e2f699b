import Foundation
import Synchronization

/// The number of rows a batched job (a sweep, an admin action or its undo, a purge) handles
/// per write transaction, adapted so that one batch takes about a time budget: a commit
/// writes every index page its rows touched, so larger batches cost less per row, while the
/// app's writes wait for the writer lock as long as a batch holds it. A store keeps one sizer
/// per kind of job; it starts at ``initial`` and learns from every batch, for the life of the
/// store.
///
/// A batch's commit does not checkpoint the WAL (SQLite's automatic checkpoint would copy and
/// sync its pages while the writer lock is held, and count in the batch's time): after each
/// batch the store's ``Checkpointer`` checkpoints passively, mostly on a thread of its own
/// while the next batch runs (see ``Checkpointer/checkpointAfterBatch()``).
final class BatchSizer: Sendable {
    /// Monotonic time, as a duration since some fixed instant; tests inject their own.
    typealias Stopwatch = @Sendable () -> Duration

    static let initial = 1000
    static let range = 100...100_000
    private static let origin = ContinuousClock.now
    /// The system's monotonic clock.
    static let monotonic: Stopwatch = { origin.duration(to: .now) }

    private let current = Atomic(BatchSizer.initial)
    private let checkpointer: Checkpointer
    private let stopwatch: Stopwatch

    /// A sizer whose batches leave their WAL pages to `checkpointer`.
    init(checkpointer: Checkpointer, stopwatch: @escaping Stopwatch = BatchSizer.monotonic) {
        self.checkpointer = checkpointer
        self.stopwatch = stopwatch
    }

    /// The size of the next batch.
    var size: Int { current.load(ordering: .relaxed) }

    /// Scales the size towards `budget` after a batch of `requested` rows that handled
    /// `handled` in `elapsed`. A partial batch (the job ran out of rows) teaches only that a
    /// batch was too slow; each step changes the size by at most a factor of two.
    func learn(requested: Int, handled: Int, elapsed: Duration, budget: Duration) {
        let elapsedSeconds = Double(elapsed.nanosecondCount) / 1e9
        let budgetSeconds = Double(budget.nanosecondCount) / 1e9
        guard elapsedSeconds > 0, budgetSeconds > 0 else { return }
        let factor = min(2, max(0.5, budgetSeconds / elapsedSeconds))
        guard handled >= requested || factor < 1 else { return }
        let next = Int((Double(requested) * factor).rounded())
        current.store(min(Self.range.upperBound, max(Self.range.lowerBound, next)), ordering: .relaxed)
    }

    /// Runs one batch as one write transaction on `database`'s writer and learns from it.
    /// `body` gets the number of rows to handle (the size, or `limit` if smaller) and returns
    /// its result and how many rows it handled. The time counted starts once the writer lock
    /// is held and includes the commit; a batch held below the size by `limit` teaches only
    /// that a batch was too slow.
    func batch<T: Sendable>(
        on database: Database, usingReserve: Bool, budget: Duration, limit: Int = .max,
        _ body: (SQLiteConnection, Int) throws -> (result: T, handled: Int)
    ) throws -> T {
        let size = self.size
        let requested = min(size, limit)
        let (result, handled, elapsed) = try database.write(usingReserve: usingReserve) { connection in
            let started = stopwatch()
            try connection.setAutomaticCheckpoint(false)
            // Back to SQLite's default, which the store's other writes keep.
            defer { try? connection.setAutomaticCheckpoint(true) }
            let (result, handled) = try connection.writeTransaction { try body(connection, requested) }
            return (result, handled, stopwatch() - started)
        }
        // Near a full disk the writer checkpoints after every write (see ``DiskRoom``): a
        // checkpoint of another connection must not be in its way.
        if database.room?.isLow != true { checkpointer.checkpointAfterBatch() }
        learn(requested: requested, handled: requested < size ? 0 : handled, elapsed: elapsed, budget: budget)
        return result
    }

    /// How far a run of batches holds its batches below the size after some did not fit on a
    /// full disk: a quarter of the failed batch, doubling again after each batch that fit.
    struct FullDiskLimit {
        private(set) var value = Int.max

        /// After a batch of `size` rows did not fit; `false` when it was a single row.
        mutating func shrink(after size: Int) -> Bool {
            guard size > 1 else { return false }
            value = max(1, size / 4)
            return true
        }

        /// After a batch that fit.
        mutating func widen() {
            value = value > Int.max / 2 ? .max : value * 2
        }
    }
}
