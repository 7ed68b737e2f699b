import Synchronization

/// Maintenance's own read-write connection, used only for WAL checkpoints, so that copying
/// pages into the file and syncing it never happen while the store's writer lock is held
/// (a checkpoint on another connection does not stop the store's writes). Opened on first
/// use; closed with the store.
final class Checkpointer: Sendable {
    private struct State {
        var connection: SQLiteConnection?
        var isClosed = false
    }

    private let path: String
    private let state = Mutex(State())

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
            if mode == .truncate { try connection.execute("PRAGMA busy_timeout = \(max(busyTimeout.milliseconds, 1))") }
            return try connection.checkpoint(mode)
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
