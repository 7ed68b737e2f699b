import Foundation

extension Admin {
    /// Runs `target`: audits it, moves what it removes into the trash (unless it is a sweep),
    /// and journals it for running apps. Returns what it removed.
    ///
    /// `progress` hears after every batch how far the action is; returning `false` stops it
    /// there, leaving what it removed so far in the trash, audited and undoable. The audit row
    /// is kept current after every batch, so an action cut off by a kill still records what
    /// it removed, and can be undone.
    ///
    /// On a full disk an entry moved into the trash can still fail to fit, and making room is
    /// what the action is for: the rest of the entries are then deleted without a trash copy,
    /// and the outcome says the action can no longer be fully undone. A target naming a
    /// namespace the file lacks throws ``InspectorError/noSuchNamespace(_:)`` and audits nothing.
    @discardableResult
    public func run(
        _ target: AdminTarget, origin: ActionOrigin = .current, progress: ((ActionProgress) -> Bool)? = nil
    ) throws -> ActionOutcome {
        try requireNamespace(of: target)
        let now = store.now()
        let targetJSON = String(decoding: try JSONEncoder().encode(target), as: UTF8.self)
        let (auditID, lastRowID) = try store.database.write { connection in
            (
                try connection.insertAudit(origin: origin, target: targetJSON, restores: nil, now: now),
                try connection.scalar("SELECT coalesce(max(id), 0) FROM entries") ?? 0
            )
        }
        var run = ActionRun(auditID: auditID, start: (now, lastRowID), keepsTrash: target.isUndoable)
        if case .expiry(_, let change) = target { run.expiry = change }
        do {
            let movedWhole = target.isUndoable ? try moveWholeNamespaces(of: target, run: &run, now: now) : false
            if !movedWhole { try moveSelected(by: target, run: &run, now: now, progress: progress) }
        } catch {
            try finish(target, run: run)
            throw error
        }
        try finish(target, run: run)
        return ActionOutcome(
            auditID: auditID, removed: run.removed, bytes: run.bytes, isUndoable: run.keepsTrash,
            isCancelled: run.isCancelled)
    }

    /// Moves the namespaces `target` empties into the trash in one transaction; returns
    /// `false` when `target` selects entries instead (or the disk has no room for the step).
    private func moveWholeNamespaces(of target: AdminTarget, run: inout ActionRun, now: Int64) throws -> Bool {
        do {
            return try store.database.write { connection in
                try connection.writeTransaction {
                    guard let whole = try wholeNamespaces(of: target, in: connection) else { return false }
                    for namespace in whole {
                        let moved = try connection.partitionNamespace(id: namespace.id, auditID: run.auditID, now: now)
                        run.add(moved.entries, moved.bytes)
                    }
                    return true
                }
            }
        } catch CacheError.diskFull {
            run.keepsTrash = false
            return false
        }
    }

    /// Moves (or, for a sweep, deletes) what `target` selects, batch by batch: the ids are
    /// read once, then each batch takes the next ones that still qualify.
    private func moveSelected(
        by target: AdminTarget, run: inout ActionRun, now: Int64, progress: ((ActionProgress) -> Bool)?
    ) throws {
        let ids = try store.database.read { connection in
            try EntryScope.of(target, now: now, in: connection).flatMap { try connection.scopeIDs($0, start: run.start) }
        }
        var partitions: [Int64: Int64] = [:]
        var next = 0
        while next < ids.count {
            let batch = Array(ids[next..<min(next + CacheStore.batchSize, ids.count)])
            do {
                try store.database.write { connection in
                    try connection.writeTransaction {
                        try moveBatch(batch, run: &run, partitions: &partitions, on: connection, now: now)
                    }
                }
            } catch CacheError.diskFull where run.keepsTrash {
                run.keepsTrash = false
                continue
            }
            next += batch.count
            if let progress, !progress(ActionProgress(done: run.removed, total: run.removed + ids.count - next)) {
                run.isCancelled = true
                return
            }
        }
    }

    /// One batch: moves the entries of `ids` that still qualify into the action's trash
    /// partitions (or deletes them), and records the running totals in the audit row.
    private func moveBatch(
        _ ids: [Int64], run: inout ActionRun, partitions: inout [Int64: Int64], on connection: SQLiteConnection,
        now: Int64
    ) throws {
        try connection.fillDoomed(ids: ids)
        try connection.keepDoomed(writtenBy: run.start.time)
        if let change = run.expiry {
            let changed = try connection.changeExpiryOfDoomed(
                change, auditID: run.auditID, keepOld: run.keepsTrash, now: now)
            run.add(changed.entries, changed.bytes)
        } else if run.keepsTrash {
            for namespace in try connection.doomedNamespaces() {
                let partition =
                    try partitions[namespace.id]
                    ?? connection.insertTrashPartition(name: namespace.name, auditID: run.auditID, now: now)
                partitions[namespace.id] = partition
                let moved = try connection.moveDoomed(from: namespace.id, to: partition)
                run.add(moved.entries, moved.bytes)
            }
        } else {
            let deleted = try connection.deleteDoomed()
            run.add(deleted.entries, deleted.bytes)
        }
        try connection.finishAudit(run.auditID, entries: run.removed, bytes: run.bytes, now: nil)
    }

    /// Records what the action removed and that it ended, journals it, then drops this
    /// process's memory copies.
    private func finish(_ target: AdminTarget, run: ActionRun) throws {
        let now = store.now()
        try store.database.write { connection in
            try connection.writeTransaction {
                try connection.finishAudit(run.auditID, entries: run.removed, bytes: run.bytes, now: now)
                if let selector = target.journalSelector {
                    try connection.appendInvalidation(selector, removed: run.removed, origin: store.origin, now: now)
                }
            }
        }
        if let selector = target.journalSelector {
            for runtime in store.allRuntimes { runtime.drop(selector) }
        }
    }
}

/// The state of an action while it runs.
struct ActionRun {
    let auditID: Int64
    /// When it started and the last row id then: entries written later are kept.
    let start: (time: Int64, lastRowID: Int64)
    /// Whether removed entries (or replaced expiry times) go to the trash (`false` for
    /// sweeps, and on a full disk).
    var keepsTrash: Bool
    /// The change an expiry action makes (it removes nothing).
    var expiry: ExpiryChange?
    var removed = 0
    var bytes = 0
    var isCancelled = false

    mutating func add(_ entries: Int, _ bytes: Int) {
        removed += entries
        self.bytes += bytes
    }
}
