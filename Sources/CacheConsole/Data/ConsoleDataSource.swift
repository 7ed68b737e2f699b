import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// Everything the console reads and does, as immutable snapshots. The console calls it only
/// from a background thread, never from the thread that owns the terminal.
///
/// ``StoreDataSource`` implements it over CacheCore's inspector, telemetry and the
/// ``ActionController``; tests use a fake.
package protocol ConsoleDataSource: Sendable {
    /// The file shown (for the header).
    var location: String { get }
    /// Whether every action is refused.
    var isReadOnly: Bool { get }
    /// Whether anything was committed to the file since the previous call (`true` at first).
    func hasChanged() throws -> Bool
    /// The Overview screen's data.
    func overview() throws -> OverviewSnapshot
    /// One page of a namespace's entries.
    func entries(_ request: EntriesRequest) throws -> EntriesPage
    /// Where entry `id` is now in `request`'s order and filter; `nil` when it is gone, no
    /// longer matches, or the source cannot say (then the cursor keeps its row number).
    func locate(_ id: EntryReference, in request: EntriesRequest) throws -> EntriesLocation?
    /// One entry in full (`nil` when it no longer exists), its value as a hex dump if `hex`.
    func entry(id: EntryReference, hex: Bool) throws -> EntryDetailSnapshot?
    /// The expiry timeline of `namespace`, or of the store when `nil`.
    func timeline(namespace: String?) throws -> TimelineSnapshot
    /// Telemetry over `window`.
    func statistics(window: StatisticsWindow) throws -> StatisticsSnapshot
    /// The newest `limit` audit rows, newest first.
    func auditLog(limit: Int) throws -> [AuditEntry]
    /// Measures an action and captures its target (through the ``ActionController``).
    func prepare(_ request: ActionRequest) throws -> PendingAction
    /// Runs `pending` if `answer` confirms it; `nil` when it does not. `progress` hears how far
    /// it is after every batch and stops it by returning `false`.
    func run(_ pending: PendingAction, answer: String, progress: @escaping (ActionProgress) -> Bool) throws
        -> ActionResult?
    /// Undoes the action with audit id `auditID`; returns how many entries came back.
    func undo(auditID: Int64) throws -> UndoOutcome
    /// The whole value stored under the canonical `key` in `namespace` (up to 16 MiB), exactly
    /// as stored; `nil` when the entry is gone.
    func wholeValue(namespace: String, key: String) throws -> Data?
    /// Writes the entries `request` selects as JSON Lines to its file; returns how many.
    func export(_ request: ExportRequest) throws -> Int
    /// Gives the file's free pages and WAL back to the filesystem (see
    /// `CacheStore.compact(progress:)`); `progress` stops it by returning `false`.
    func compact(progress: @escaping (CompactionProgress) -> Bool) throws -> CompactionOutcome
    /// Whether the source is a Redis keyspace (browsed read-only) rather than a cache file.
    var isKeyspace: Bool { get }
    /// Whether ``keyspace(_:)`` and ``redisKey(_:)`` answer (a keyspace, or a Redis store's
    /// database).
    var hasKeyspace: Bool { get }
    /// The server and one level of the keyspace tree, scanning a bounded while further.
    func keyspace(_ request: KeyspaceRequest) throws -> KeyspaceSnapshot
    /// One Redis key in full (`nil` when it no longer exists).
    func redisKey(_ key: Data) throws -> RedisKeyDetail?
    /// What the keys under `prefix` found so far hold, by type and by TTL.
    func keyspaceBreakdown(_ prefix: Data) throws -> KeyspaceBreakdown
    /// The Redis nodes and where the store's namespaces live.
    func topology() throws -> RedisTopology
    /// Every Redis node's newest `count` slow commands and latest latency spikes.
    func latency(count: Int) throws -> [RedisNodeLatency]
}

extension ConsoleDataSource {
    package var isKeyspace: Bool { false }

    package func locate(_ id: EntryReference, in request: EntriesRequest) throws -> EntriesLocation? { nil }

    package func compact(progress: @escaping (CompactionProgress) -> Bool) throws -> CompactionOutcome {
        throw ConsoleError("Compacting is for cache files: Redis gives memory back itself.")
    }

    package var hasKeyspace: Bool { isKeyspace }

    package func wholeValue(namespace: String, key: String) throws -> Data? {
        throw ConsoleError("Copying or paging a value is for CacheDeck files and Redis stores.")
    }

    package func keyspace(_ request: KeyspaceRequest) throws -> KeyspaceSnapshot {
        throw ConsoleError("This console shows a cache file, not a Redis keyspace.")
    }

    package func redisKey(_ key: Data) throws -> RedisKeyDetail? {
        throw ConsoleError("This console shows a cache file, not a Redis keyspace.")
    }

    package func keyspaceBreakdown(_ prefix: Data) throws -> KeyspaceBreakdown {
        throw ConsoleError("This console shows a cache file, not a Redis keyspace.")
    }

    package func topology() throws -> RedisTopology {
        throw ConsoleError("This console shows a cache file, not a Redis server.")
    }

    package func latency(count: Int) throws -> [RedisNodeLatency] {
        throw ConsoleError("This console shows a cache file, not a Redis server.")
    }
}

/// An action the operator asked for, before it is measured.
package enum ActionRequest: Sendable, Hashable {
    /// A target the action controller knows as it is.
    case target(AdminTarget)
    /// Every entry of `namespace` that matches `filter` (filter text): invalidated (or, with
    /// `expiry`, given a new expiry) by prefix or tag when the filter is just that, else by
    /// the keys it matches (a bounded number).
    case matching(namespace: String, filter: String, expiry: ExpiryChange? = nil)
    /// The JSON Lines at `path` (`~/…` under `$HOME`), as `cachedeck export` writes them,
    /// imported into `namespace` (`nil`: the one the lines name). Cache files only.
    case importFile(path: String, namespace: String?)
}
