import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation
import Synchronization

/// A Redis database for the console, browsed read-only: one scan of the whole keyspace,
/// begun by the first read (which reads its first batches, for at most
/// ``firstScanBudget``, so the first screen shows keys) and run on a thread of its own from
/// then on, whose tree every level view reads as it grows; no later read waits for the scan,
/// so a key opens at once while it runs.
/// A keyspace may delete keys (a key, marked keys, a prefix; never a RedisStore's) through
/// ``RedisKeyspaceAdmin``: preview, confirmation, progress, the log and undo of every action
/// (the Audit view); after each, the scan starts over. Cache-file reads are refused.
package final class KeyspaceDataSource: ConsoleDataSource {
    /// The most children of a level one read returns (the largest first).
    static let levelLimit = 2000
    /// How long the first read scans before it answers (then the scan runs on its thread).
    static let firstScanBudget = Duration.milliseconds(200)

    private let keyspace: RedisKeyspace
    /// The key prefix of the RedisStore whose namespaces the topology places.
    private let storePrefix: String
    /// Started by the first keyspace read (a RedisStore console may never browse the keyspace).
    private let runner = Mutex<ScanRunner<KeyspaceScan>?>(nil)
    /// Key deletions (`nil`: read-only).
    private let controller: ActionController?

    /// Connects to `url` (one line on failure: bad URL, refused connection, wrong password);
    /// the topology places the namespaces of the RedisStore under `storePrefix`. With
    /// `deletesKeys`, keys may be deleted (their undo kept under `storePrefix`).
    package init(
        url: String, separator: String = ":", storePrefix: String = RedisStoreOptions.defaultPrefix,
        deletesKeys: Bool = false
    ) throws {
        let keyspace = try RedisKeyspace(url: url, separator: separator)
        self.keyspace = keyspace
        self.storePrefix = storePrefix
        controller =
            deletesKeys
            ? ActionController(
                admin: try keyspace.admin(prefix: storePrefix), isReadOnly: false, location: keyspace.redactedURL)
            : nil
    }

    deinit { runner.withLock { $0?.stop() } }

    package var location: String { keyspace.redactedURL }
    package var isReadOnly: Bool { controller == nil }
    package var isKeyspace: Bool { true }

    /// Always `true`: the server has no change counter a read could check, and reads are bounded.
    package func hasChanged() throws -> Bool { true }

    package func keyspace(_ request: KeyspaceRequest) throws -> KeyspaceSnapshot {
        let scan = try currentScan(restarting: request.rescan)
        return KeyspaceSnapshot(
            server: try keyspace.server(), level: scan.level(request.prefix, limit: Self.levelLimit))
    }

    package func keyspaceBreakdown(_ prefix: Data) throws -> KeyspaceBreakdown {
        try currentScan(restarting: false).breakdown(prefix)
    }

    /// The scan to show, started by the first call (or, `restarting`, started over).
    private func currentScan(restarting: Bool) throws -> KeyspaceScan {
        try runner.withLock { runner in
            guard let running = runner else {
                // The first screen shows keys at once: the scan's first batches are read here.
                let first = keyspace.scan()
                try first.run(for: Self.firstScanBudget)
                let started = ScanRunner(recount: nil, first: first) { [keyspace] in keyspace.scan() }
                runner = started
                return try started.current()
            }
            if restarting { running.restart() }
            return try running.current()
        }
    }

    package func redisKey(_ key: Data) throws -> RedisKeyDetail? {
        try keyspace.key(key)
    }

    package func topology() throws -> RedisTopology {
        try keyspace.topology(storePrefix: storePrefix)
    }

    package func latency(count: Int) throws -> [RedisNodeLatency] {
        try keyspace.latency(count: count)
    }

    // MARK: Deleting keys

    package func auditLog(limit: Int) throws -> [AuditEntry] {
        try deletions().auditLog(limit: limit).map(AuditEntry.init)
    }

    /// Measures a deletion (a key, keys or a prefix; see ``RedisKeyspaceAdmin``).
    package func prepare(_ request: ActionRequest) throws -> PendingAction {
        guard case .target(let target) = request else {
            throw ConsoleError("A Redis keyspace deletes a key, marked keys or a prefix.")
        }
        return try deletions().prepare(target)
    }

    /// Runs the deletion, then scans again (the tree shown before it is no longer true).
    package func run(_ pending: PendingAction, answer: String, progress: @escaping (ActionProgress) -> Bool) throws
        -> ActionResult?
    {
        defer { rescan() }
        return try deletions().run(pending, answer: answer, progress: progress)
    }

    /// Undoes deletion `auditID`, then scans again.
    package func undo(auditID: Int64) throws -> UndoOutcome {
        defer { rescan() }
        return try deletions().undo(UndoHandle(auditID: auditID, summary: "deletion #\(auditID)"))
    }

    private func deletions() throws -> ActionController {
        guard let controller else {
            throw ConsoleError("This Redis keyspace is browsed read-only: keys are deleted where no RedisStore wrote.")
        }
        return controller
    }

    /// Starts the scan over (after an action changed the keys).
    func rescan() {
        runner.withLock { $0?.restart() }
    }

    // MARK: What a keyspace does not have

    private static func unavailable() -> ConsoleError {
        ConsoleError("A Redis keyspace has no entries: this needs a CacheDeck cache file.")
    }

    package func overview() throws -> OverviewSnapshot { throw Self.unavailable() }
    package func entries(_ request: EntriesRequest) throws -> EntriesPage { throw Self.unavailable() }
    package func entry(id: EntryReference, hex: Bool) throws -> EntryDetailSnapshot? { throw Self.unavailable() }
    package func timeline(namespace: String?) throws -> TimelineSnapshot { throw Self.unavailable() }
    package func statistics(window: StatisticsWindow) throws -> StatisticsSnapshot { throw Self.unavailable() }
    package func export(_ request: ExportRequest) throws -> Int { throw Self.unavailable() }
}
