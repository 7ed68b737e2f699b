import Foundation
import Synchronization

/// Maintenance's own read-write connection, used only for WAL checkpoints, so that copying
/// pages into the file and syncing it never happen while the store's writer lock is held
/// (a checkpoint on another connection does not stop the store's writes). Opened on first
/// use; closed with the store. Batched jobs start passive checkpoints on a thread of its
/// own (see ``checkpointAfterBatch()``), so copying and syncing overlap their next batch.
final class Checkpointer: Sendable {
    private struct State {
        var connection: SQLiteConnection?
        var isClosed = false
    }

    /// The WAL size past which ``checkpointAfterBatch()`` lets the WAL start over: the
    /// `journal_size_limit` it is truncated to then.
    static let walLimit = 64 << 20
    private let path: String
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "CacheCore checkpoint")
    private let isCheckpointingInBackground = Atomic(false)

    init(path: String) {
        self.path = path
    }

    /// Runs a checkpoint; a truncating one waits at most `busyTimeout` for readers and writers.
    func checkpoint(_ mode: SQLiteConnection.CheckpointMode, busyTimeout: Duration) throws -> (
        busy: Bool, framesInLog: Int, framesCheckpointed: Int
    ) {
        try CacheError.mappingSQLite(path: path) { try run(mode, busyTimeout: busyTimeout) }
    }

    private func run(_ mode: SQLiteConnection.CheckpointMode, busyTimeout: Duration) throws -> (
        busy: Bool, framesInLog: Int, framesCheckpointed: Int
    ) {
        try state.withLock { state in
            if state.isClosed { throw CacheError.cannotOpen(path: path, reason: "the store was closed") }
            let connection =
                try state.connection
                ?? SQLiteConnection(path: path, readOnly: false, create: false, busyTimeout: busyTimeout)
            state.connection = connection
            if mode == .truncate { connection.setBusyTimeout(max(busyTimeout, .milliseconds(1))) }
            return try connection.checkpoint(mode)
        }
    }

    /// The passive checkpoint after a batch of a batched job (see ``BatchSizer``). It runs on
    /// the checkpoint thread, overlapping the next batch, unless the last one still runs
    /// (then it does nothing). Overlapping writes keep the WAL from starting over, so once its
    /// file outgrows ``walLimit`` the checkpoint runs on the caller's thread instead (after any
    /// running one), and the next write starts the WAL over. Failures are left to the next
    /// checkpoint (maintenance's checkpoint task reports them).
    func checkpointAfterBatch() {
        var info = stat()
        if lstat(path + "-wal", &info) == 0, Int(info.st_size) > Self.walLimit {
            queue.sync { _ = try? checkpoint(.passive, busyTimeout: .zero) }
            return
        }
        guard
            isCheckpointingInBackground.compareExchange(expected: false, desired: true, ordering: .acquiring)
                .exchanged
        else { return }
        queue.async { [self] in
            _ = try? checkpoint(.passive, busyTimeout: .zero)
            isCheckpointingInBackground.store(false, ordering: .releasing)
        }
    }

    /// Closes the connection; later checkpoints throw.
    func close() {
        state.withLock { state in
            state.connection = nil
            state.isClosed = true
        }
    }
}
