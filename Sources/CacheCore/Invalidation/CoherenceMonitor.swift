import Synchronization

/// Keeps this process's memory tiers coherent with the file: when `PRAGMA data_version` says
/// another connection committed, it applies new invalidation-journal rows from other store
/// instances and drops memory copies whose file row was rewritten since the last check.
///
/// It owns one read-only connection (`data_version` is per connection) and never holds a read
/// transaction between checks.
final class CoherenceMonitor: Sendable {
    private struct State {
        let connection: SQLiteConnection
        var dataVersion: Int64
        var journalSeq: Int64
        var lastCheck: Int64
    }

    /// Rows that reached the file up to this long before the previous check are looked at
    /// again (a writer stamps `accessed_at` just before it commits).
    static let writeStampMargin: Int64 = 2_000

    private let state: Mutex<State>
    private let origin: String
    private let path: String

    /// Opens the monitor's connection; SQLite failures are thrown as ``CacheError``.
    init(path: String, origin: String, busyTimeout: Duration, now: Int64) throws {
        let (connection, dataVersion, journalSeq) = try CacheError.mappingSQLite(path: path) {
            let connection = try SQLiteConnection(path: path, readOnly: true, create: false, busyTimeout: busyTimeout)
            return (connection, try connection.dataVersion(), try connection.latestInvalidation())
        }
        state = Mutex(State(connection: connection, dataVersion: dataVersion, journalSeq: journalSeq, lastCheck: now))
        self.origin = origin
        self.path = path
    }

    /// Applies what other connections committed since the last call to `runtimes`' memory
    /// tiers. Costs one `PRAGMA data_version` when nothing changed. SQLite failures are
    /// thrown as ``CacheError``.
    func synchronize(_ runtimes: [NamespaceRuntime], now: Int64) throws {
        try CacheError.mappingSQLite(path: path) { try check(runtimes, now: now) }
    }

    private func check(_ runtimes: [NamespaceRuntime], now: Int64) throws {
        try state.withLock { state in
            let version = try state.connection.dataVersion()
            guard version != state.dataVersion else { return }
            state.dataVersion = version
            try applyJournal(&state, runtimes)
            let since = state.lastCheck - Self.writeStampMargin
            state.lastCheck = now
            try dropReplaced(state.connection, runtimes, since: since)
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

    private func dropReplaced(_ connection: SQLiteConnection, _ runtimes: [NamespaceRuntime], since: Int64) throws {
        for runtime in runtimes {
            guard let memory = runtime.memory, let namespaceID = runtime.namespaceID, memory.count > 0 else {
                continue
            }
            for entry in try connection.entriesWritten(namespaceID: namespaceID, since: since) {
                _ = memory.dropIfReplaced(entry.key, writtenAt: entry.writtenAt)
            }
        }
    }
}
