import Synchronization

/// Keeps this process's memory tiers coherent with the file: when `PRAGMA data_version` says
/// another connection committed, it applies new invalidation-journal rows from other store
/// instances and drops memory copies of keys the write journal says were set since (unless
/// the copy is of that very write).
///
/// It owns one read-only connection (`data_version` is per connection) and never holds a read
/// transaction between checks.
final class CoherenceMonitor: Sendable {
    private struct State {
        let connection: SQLiteConnection
        var dataVersion: Int64
        var journalSeq: Int64
        var writeSeq: Int64
    }

    private let state: Mutex<State>
    private let origin: String
    private let path: String

    /// Opens the monitor's connection; SQLite failures are thrown as ``CacheError``.
    init(path: String, origin: String, busyTimeout: Duration) throws {
        let (connection, dataVersion, journalSeq, writeSeq) = try CacheError.mappingSQLite(path: path) {
            let connection = try SQLiteConnection(path: path, readOnly: true, create: false, busyTimeout: busyTimeout)
            return (
                connection, try connection.dataVersion(), try connection.latestInvalidation(),
                try connection.latestEntryWrite()
            )
        }
        state = Mutex(
            State(connection: connection, dataVersion: dataVersion, journalSeq: journalSeq, writeSeq: writeSeq))
        self.origin = origin
        self.path = path
    }

    /// Applies what other connections committed since the last call to `runtimes`' memory
    /// tiers. Costs one `PRAGMA data_version` when nothing changed. SQLite failures are
    /// thrown as ``CacheError``.
    func synchronize(_ runtimes: [NamespaceRuntime]) throws {
        try CacheError.mappingSQLite(path: path) { try check(runtimes) }
    }

    private func check(_ runtimes: [NamespaceRuntime]) throws {
        try state.withLock { state in
            let version = try state.connection.dataVersion()
            guard version != state.dataVersion else { return }
            state.dataVersion = version
            try applyJournal(&state, runtimes)
            try dropRewritten(&state, runtimes)
        }
    }

    private func applyJournal(_ state: inout State, _ runtimes: [NamespaceRuntime]) throws {
        let records = try state.connection.invalidations(after: state.journalSeq)
        let oldest = try state.connection.oldestInvalidation()
        if oldest > state.journalSeq + 1 {
            // Rows this process never saw were trimmed: nothing in memory can be trusted.
            for runtime in runtimes { runtime.memory?.removeAll { _ in true } }
        }
        for record in records where record.origin != origin {
            for runtime in runtimes {
                runtime.drop(record.change)
            }
        }
        state.journalSeq = max(state.journalSeq, records.last?.seq ?? state.journalSeq)
    }

    /// Drops the copies of keys set since the last check, unless a copy is of that very
    /// write (this process's own sets, or a copy read after the write).
    private func dropRewritten(_ state: inout State, _ runtimes: [NamespaceRuntime]) throws {
        let writes = try state.connection.entryWrites(after: state.writeSeq)
        if try state.connection.oldestEntryWrite() > state.writeSeq + 1 {
            // Rows this process never saw were trimmed: nothing in memory can be trusted.
            for runtime in runtimes { runtime.memory?.removeAll { _ in true } }
        }
        let memories = Dictionary(
            runtimes.compactMap { runtime in runtime.namespaceID.flatMap { id in runtime.memory.map { (id, $0) } } },
            uniquingKeysWith: { first, _ in first })
        for write in writes {
            _ = memories[write.namespaceID]?.dropIfReplaced(write.key, writtenAt: write.writtenAt)
        }
        state.writeSeq = max(state.writeSeq, writes.last?.seq ?? state.writeSeq)
    }
}
