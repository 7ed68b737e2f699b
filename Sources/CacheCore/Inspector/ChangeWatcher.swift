import Synchronization

/// Tells a viewer whether anything was committed to the file since it last asked, for the
/// price of one `PRAGMA data_version` on a read-only connection of its own (the pragma is per
/// connection, and this one never writes, so every commit counts: other processes', and this
/// process's own writes through its store).
///
/// ```swift
/// let watcher = try store.inspector.changeWatcher()
/// if try watcher.hasChanged() { reload() }
/// ```
public final class ChangeWatcher: Sendable {
    private struct State {
        let connection: SQLiteConnection
        var version: Int64?
    }

    private let state: Mutex<State>

    init(database: Database) throws {
        do {
            let connection = try database.openReader()
            state = Mutex(State(connection: connection, version: nil))
        } catch let error as SQLiteError {
            throw CacheError(error, path: database.path)
        }
    }

    /// Whether a commit happened since the previous call; `true` on the first call.
    public func hasChanged() throws -> Bool {
        try state.withLock { state in
            let version: Int64
            do {
                version = try state.connection.dataVersion()
            } catch let error as SQLiteError {
                throw CacheError(error, path: state.connection.path)
            }
            defer { state.version = version }
            return state.version != version
        }
    }
}

extension Inspector {
    /// A new ``ChangeWatcher`` on the inspected file.
    public func changeWatcher() throws -> ChangeWatcher {
        try ChangeWatcher(database: store.database)
    }
}
