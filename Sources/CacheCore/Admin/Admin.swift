import Foundation

/// Operator actions on a store: sweep, clear and invalidate with a dry run first, an audit
/// row for each, a trash that keeps what was removed, and restore.
///
/// ```swift
/// let admin = store.admin
/// let impact = try admin.preview(.clear(namespace: "tiles"))   // entries, bytes, hit share
/// let outcome = try admin.run(.clear(namespace: "tiles"))
/// try admin.restore(outcome.auditID)                           // undo
/// ```
///
/// A clear moves the whole namespace into the trash in one step, whatever its size, and its
/// undo moves it back the same way (see ``Schema/partitions``). Other actions, and their
/// undo, move the entries they select in batches sized to take about 100 ms each, so the
/// app's reads and writes interleave, reporting progress and stopping when asked; entries written
/// after the run started are kept. Every action is journaled so running apps drop their
/// memory copies. A read-only store refuses every action.
public struct Admin: Sendable {
    let store: CacheStore

    /// How long removed rows stay in the trash by default.
    public static let trashRetention: Duration = .seconds(7 * 24 * 3600)

    /// What `target` would remove now. Changes nothing. Throws
    /// ``InspectorError/noSuchNamespace(_:)`` when the target names a namespace the file lacks.
    ///
    /// Whole namespaces are counted from their counters and a key, prefix or tag through an
    /// index, so the figures are exact and cost time in proportion to what is selected. The
    /// share of recent hits is an indication: the telemetry's hits of the last hour for whole
    /// namespaces, and the selected entries' recorded hits (of those read in the last hour)
    /// otherwise, over the telemetry's hits on the whole store.
    public func preview(_ target: AdminTarget) throws -> ActionImpact {
        try requireNamespace(of: target)
        let now = store.now()
        let since = now - 3_600_000
        let isDiskFull = !store.isReadOnly && (try? store.diskSpace().isFullForRemovals) == true
        return try store.database.read { connection in
            try connection.readTransaction {
                func telemetryHits(_ namespace: String?) throws -> Int {
                    try connection.activityCounts(from: since, until: now + 1, width: .max, namespace: namespace)
                        .reduce(0) { $0 + $1.counts.hits }
                }
                let scopes = try EntryScope.of(target, now: now, in: connection)
                var entries = 0
                var bytes = 0
                var recentHits = 0
                if let whole = try wholeNamespaces(of: target, in: connection) {
                    for namespace in whole {
                        let totals = try connection.namespaceTotals(namespaceID: namespace.id)
                        entries += totals.entries
                        bytes += totals.bytes
                        recentHits += try telemetryHits(namespace.name)
                    }
                } else {
                    for scope in scopes {
                        let counted = try connection.scopeTotals(scope, recentSince: since)
                        entries += counted.entries
                        bytes += counted.bytes
                        recentHits += counted.recentHits
                    }
                }
                let storeHits = try telemetryHits(nil)
                return ActionImpact(
                    entries: entries, bytes: bytes,
                    recentHitShare: storeHits > 0 ? min(1, Double(recentHits) / Double(storeHits)) : 0,
                    sampleKeys: try scopes.first.map { try connection.sampleKeys($0, limit: 10) } ?? [],
                    isDiskFull: isDiskFull)
            }
        }
    }

    /// The live namespaces `target` empties whole (`clear`, `clear all` and a namespace
    /// invalidation), or `nil` when it selects entries.
    func wholeNamespaces(of target: AdminTarget, in connection: SQLiteConnection) throws -> [(
        id: Int64, name: String
    )]? {
        switch target {
        case .clear(let name), .invalidate(.namespace(let name)):
            return try connection.namespaceRow(name: name).map { [($0.id, name)] } ?? []
        case .clearAll, .invalidate(.all):
            return try connection.namespaceRecords(named: nil).map { ($0.id, $0.name) }
        case .sweep, .invalidate, .expiry, .importEntries, .deleteKeys:
            return nil
        }
    }

    /// Audit row `id`, or `nil` when there is none.
    public func auditRecord(_ id: Int64) throws -> AuditRecord? {
        try store.database.read { try $0.auditRecords(limit: 1, id: id).first }
    }

    /// The newest `limit` audit rows, newest first.
    public func auditLog(limit: Int = 100) throws -> [AuditRecord] {
        try store.database.read { try $0.auditRecords(limit: limit) }
    }

    /// Deletes the trash of actions older than `age` (and retired namespaces left by version
    /// changes); returns how many entries it deleted. (The maintenance service does this on
    /// its own; see ``MaintenanceTask/purgeTrashAndAudit``.)
    ///
    /// When the trash is what fills the disk, this is what frees it: on a full disk it uses
    /// the room kept for removals, in batches that shrink until they fit. The space it frees
    /// and the `-wal`'s go back to the filesystem (see ``CacheStore/compact(progress:)``).
    @discardableResult
    public func purgeTrash(olderThan age: Duration = Admin.trashRetention) throws -> Int {
        _ = try store.makeRoomForRemovals()
        let purged = try store.deleter.purgePartitions(before: store.now() - age.milliseconds)
        if purged > 0 { store.giveSpaceBack() }
        return purged
    }
}

extension CacheStore {
    /// Operator actions: preview, run, audit and restore. See ``Admin``.
    public var admin: Admin { Admin(store: self) }
}
