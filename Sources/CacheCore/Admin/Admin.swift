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
/// A run removes what the preview would count at that moment, in batches of
/// ``CacheStore/batchSize`` so the app's reads and writes interleave, and journals it so
/// running apps drop their memory copies. Entries written after the run started (new keys, or
/// new values from the next millisecond on) are kept: an app writing during a long clear
/// loses none of its new writes.
/// A read-only store refuses every action.
public struct Admin: Sendable {
    let store: CacheStore

    /// How long removed rows stay in the trash by default.
    public static let trashRetention: Duration = .seconds(7 * 24 * 3600)

    /// What `target` would remove now. Changes nothing.
    public func preview(_ target: AdminTarget) throws -> ActionImpact {
        let now = store.now()
        return try store.database.read { connection in
            guard let scope = try EntryScope.of(target, now: now, in: connection) else {
                return ActionImpact(entries: 0, bytes: 0, recentHitShare: 0, sampleKeys: [])
            }
            let since = now - 3_600_000
            let (entries, bytes, recentHits) = try connection.withDynamicStatement(
                """
                SELECT count(*), coalesce(sum(e.size), 0),
                       coalesce(sum(CASE WHEN e.accessed_at >= ?10 THEN e.hits END), 0)
                FROM entries e WHERE \(scope.condition)
                """
            ) { statement in
                scope.bind(to: statement)
                Int64(since).bind(to: statement, at: 10)
                return try statement.firstRow { ($0.int(0), $0.int(1), $0.int(2)) } ?? (0, 0, 0)
            }
            // The share of the whole store's hits: a namespace's own share of its hits is 100 %
            // for every clear.
            let totalRecentHits = try connection.recentHits(since: since, namespace: nil)
            let sample = try connection.withDynamicStatement(
                """
                SELECT n.name || '/' || e.key FROM entries e JOIN namespaces n ON n.id = e.namespace_id
                WHERE \(scope.condition) LIMIT 10
                """
            ) { statement in
                scope.bind(to: statement)
                return try statement.rows { $0.text(0) }
            }
            return ActionImpact(
                entries: entries, bytes: bytes,
                recentHitShare: totalRecentHits > 0 ? Double(recentHits) / Double(totalRecentHits) : 0,
                sampleKeys: sample)
        }
    }

    /// Runs `target`: audits it, moves the rows to the trash (unless it is a sweep) and
    /// removes them in batches, then journals it for running apps.
    ///
    /// On a full disk there is no room for the trash copy, and making room is what the action
    /// is for: the rest of the rows are then removed without one, and the outcome says the
    /// action can no longer be fully undone. If a batch fails, what earlier batches removed is
    /// still audited and journaled before the error is thrown.
    @discardableResult
    public func run(_ target: AdminTarget, origin: ActionOrigin = .current) throws -> ActionOutcome {
        let now = store.now()
        let targetJSON = String(decoding: try JSONEncoder().encode(target), as: UTF8.self)
        let (auditID, lastRowID) = try store.database.write { connection in
            (
                try connection.insertAudit(origin: origin, target: targetJSON, restores: nil, now: now),
                try connection.scalar("SELECT coalesce(max(id), 0) FROM entries") ?? 0
            )
        }
        var removed = 0
        var bytes = 0
        var keepInTrash = target.isUndoable
        var failure: (any Error)?
        while true {
            let batch: (Int, Int)
            do {
                batch = try store.database.write { connection in
                    try connection.writeTransaction {
                        guard let scope = try EntryScope.of(target, now: now, in: connection) else { return (0, 0) }
                        return try connection.removeBatch(
                            scope, start: (now, lastRowID), auditID: auditID, keepInTrash: keepInTrash,
                            limit: CacheStore.batchSize)
                    }
                }
            } catch CacheError.diskFull where keepInTrash {
                keepInTrash = false
                continue
            } catch {
                failure = error
                break
            }
            removed += batch.0
            bytes += batch.1
            if batch.0 < CacheStore.batchSize { break }
        }
        try finish(target, auditID: auditID, removed: removed, bytes: bytes, now: now)
        if let failure { throw failure }
        return ActionOutcome(auditID: auditID, removed: removed, bytes: bytes, isUndoable: keepInTrash)
    }

    /// Records what an action removed in its audit row and journals it, then drops this
    /// process's memory copies.
    private func finish(_ target: AdminTarget, auditID: Int64, removed: Int, bytes: Int, now: Int64) throws {
        try store.database.write { connection in
            try connection.writeTransaction {
                try connection.run("UPDATE audit SET entries = ?2, bytes = ?3 WHERE id = ?1", auditID, removed, bytes)
                if let selector = target.journalSelector {
                    try connection.appendInvalidation(selector, removed: removed, origin: store.origin, now: now)
                }
            }
        }
        if let selector = target.journalSelector {
            for runtime in store.allRuntimes { runtime.drop(selector) }
        }
    }

    /// Brings back the rows action `auditID` removed (keys written again since keep their new
    /// value) and records the restore in the audit log. Returns how many came back.
    @discardableResult
    public func restore(_ auditID: Int64, origin: ActionOrigin = .current) throws -> Int {
        let now = store.now()
        let records = try store.database.read { try $0.auditRecords(limit: 1, id: auditID) }
        guard let record = records.first else {
            throw CacheError.nothingToRestore(reason: "there is no action #\(auditID) in the audit log")
        }
        guard record.canUndo else {
            throw CacheError.nothingToRestore(
                reason: record.undoneAt != nil
                    ? "action #\(auditID) was already undone"
                    : "action #\(auditID) kept nothing to restore (sweeps, restores and purged trash cannot be undone)")
        }
        var restored = 0
        var bytes = 0
        while true {
            let batch = try store.database.write { connection in
                try connection.writeTransaction {
                    try connection.restoreTrashBatch(auditID: auditID, limit: CacheStore.batchSize)
                }
            }
            restored += batch.restored
            bytes += batch.bytes
            if batch.taken < CacheStore.batchSize { break }
        }
        try store.database.write { connection in
            try connection.writeTransaction {
                try connection.run("UPDATE audit SET undone_at = ?2 WHERE id = ?1", auditID, now)
                let restoreID = try connection.insertAudit(origin: origin, target: nil, restores: auditID, now: now)
                try connection.run(
                    "UPDATE audit SET entries = ?2, bytes = ?3 WHERE id = ?1", restoreID, restored, bytes)
            }
        }
        return restored
    }

    /// The newest `limit` audit rows, newest first.
    public func auditLog(limit: Int = 100) throws -> [AuditRecord] {
        try store.database.read { try $0.auditRecords(limit: limit) }
    }

    /// Deletes trash rows of actions older than `age`; returns how many rows it deleted.
    /// (The maintenance service does this on its own; see ``MaintenanceTask/purgeTrashAndAudit``.)
    @discardableResult
    public func purgeTrash(olderThan age: Duration = Admin.trashRetention) throws -> Int {
        let cutoff = store.now() - age.milliseconds
        return try store.deleteInBatches { try $0.purgeTrash(before: cutoff, limit: CacheStore.batchSize) }
    }
}

extension CacheStore {
    /// Operator actions: preview, run, audit and restore. See ``Admin``.
    public var admin: Admin { Admin(store: self) }
}
