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
    /// On a full disk (short of the room the store keeps for removals, see
    /// ``StoreOptions/diskReserve``, or out of room for a trash copy) the action deletes
    /// instead: a trash copy would free nothing. It uses the reserve, deletes in batches that
    /// shrink until they fit, writes its audit row last if there was no room for it first, and
    /// then gives the `-wal`'s space back to the filesystem. The outcome says so
    /// (``ActionOutcome/wasDiskFull``), and counts what it could not remove. A target naming a
    /// namespace the file lacks throws ``InspectorError/noSuchNamespace(_:)`` and audits nothing.
    @discardableResult
    public func run(
        _ target: AdminTarget, origin: ActionOrigin = .current, progress: ((ActionProgress) -> Bool)? = nil
    ) throws -> ActionOutcome {
        try requireNamespace(of: target)
        if case .importEntries = target {
            throw CacheError.unsupported(feature: "running an import as a purge", reason: "use importEntries(_:into:)")
        }
        let now = store.now()
        let targetJSON = String(decoding: try JSONEncoder().encode(target), as: UTF8.self)
        let isShort = try store.makeRoomForRemovals()
        var (auditID, lastRow): (Int64?, Int64)
        do {
            (auditID, lastRow) = try store.database.write(usingReserve: true) { connection in
                (
                    try connection.insertAudit(origin: origin, target: targetJSON, restores: nil, now: now),
                    try connection.entryIDRange()?.upperBound ?? 0
                )
            }
        } catch CacheError.diskFull {
            // No room for the row now: the action runs without it and writes it at the end.
            (auditID, lastRow) = (nil, try store.database.read { try $0.entryIDRange()?.upperBound ?? 0 })
        }
        let removes = if case .expiry = target { false } else { true }
        var run = ActionRun(
            auditID: auditID, start: (now, lastRow),
            keepsTrash: target.isUndoable && auditID != nil && !(isShort && removes))
        run.wasDiskFull = isShort && removes || auditID == nil
        if case .expiry(_, let change) = target { run.expiry = change }
        do {
            let movedWhole = run.keepsTrash ? try moveWholeNamespaces(of: target, run: &run, now: now) : false
            if !movedWhole { try moveSelected(by: target, run: &run, now: now, progress: progress) }
        } catch {
            try finish(target, run: &run, origin: origin, targetJSON: targetJSON)
            throw error
        }
        try finish(target, run: &run, origin: origin, targetJSON: targetJSON)
        if run.wasDiskFull { store.giveBackLog() }
        return ActionOutcome(
            auditID: run.auditID ?? 0, removed: run.removed, bytes: run.bytes, isUndoable: run.keepsTrash,
            isCancelled: run.isCancelled, wasDiskFull: run.wasDiskFull, notRemoved: run.notRemoved,
            isAudited: run.auditID != nil)
    }

    /// Moves the namespaces `target` empties into the trash in one transaction; returns
    /// `false` when `target` selects entries instead (or the disk has no room for the step).
    private func moveWholeNamespaces(of target: AdminTarget, run: inout ActionRun, now: Int64) throws -> Bool {
        guard let auditID = run.auditID else { return false }
        do {
            let moved = try store.database.write(usingReserve: true) { connection in
                try connection.writeTransaction { () -> (entries: Int, bytes: Int)? in
                    guard let whole = try wholeNamespaces(of: target, in: connection) else { return nil }
                    var total = (entries: 0, bytes: 0)
                    for namespace in whole {
                        let moved = try connection.partitionNamespace(id: namespace.id, auditID: auditID, now: now)
                        total = (total.entries + moved.entries, total.bytes + moved.bytes)
                    }
                    return total
                }
            }
            guard let moved else { return false }
            run.add(moved.entries, moved.bytes)
            return true
        } catch CacheError.diskFull {
            run.keepsTrash = false
            run.wasDiskFull = true
            return false
        }
    }

    /// Moves (or, for a sweep, deletes) what `target` selects, batch by batch: the ids are
    /// read once, then each batch takes the next ones that still qualify. On a full disk a
    /// batch that does not fit is tried again smaller, down to one entry; what not even that
    /// fits is counted in ``ActionRun/notRemoved``.
    private func moveSelected(
        by target: AdminTarget, run: inout ActionRun, now: Int64, progress: ((ActionProgress) -> Bool)?
    ) throws {
        let ids = try store.database.read { connection in
            try EntryScope.of(target, now: now, in: connection).flatMap {
                try connection.scopeIDs($0, start: run.start)
            }
        }
        guard !ids.isEmpty else { return }
        var partitions: [Int64: Int64] = [:]
        var next = 0
        do {
            // A batch works on a copy of the run's state, kept once its transaction committed
            // (a batch that does not fit is rolled back). The first that does not fit is tried
            // again without a trash copy, which would free nothing.
            let ending = try store.moveBatches.run(
                onDiskFull: {
                    run.wasDiskFull = true
                    guard run.keepsTrash else { return .shrink }
                    run.keepsTrash = false
                    return .retry
                },
                batch: { connection, size in
                    let batch = ids[next..<min(next + size, ids.count)]
                    var (batchRun, batchPartitions) = (run, partitions)
                    try moveBatch(batch, run: &batchRun, partitions: &batchPartitions, on: connection, now: now)
                    return ((batchRun, batchPartitions, batch.count), batch.count, batch.endIndex == ids.count)
                },
                committed: { (after: ActionRun, known: [Int64: Int64], taken: Int) in
                    (run, partitions) = (after, known)
                    next += taken
                    return progress?(ActionProgress(done: run.removed, total: run.removed + ids.count - next)) ?? true
                })
            run.isCancelled = ending == .cancelled
        } catch CacheError.diskFull {
            run.wasDiskFull = true
            run.notRemoved = ids.count - next
        }
    }

    /// One batch: moves the entries of `ids` that still qualify into the action's trash
    /// partitions (or deletes them), and records the running totals in the audit row.
    private func moveBatch(
        _ ids: ArraySlice<Int64>, run: inout ActionRun, partitions: inout [Int64: Int64],
        on connection: SQLiteConnection,
        now: Int64
    ) throws {
        try connection.fillDoomed(ids: ids, writtenBy: run.start.time)
        if let change = run.expiry {
            let changed = try connection.changeExpiryOfDoomed(
                change, auditID: run.auditID ?? 0, keepOld: run.keepsTrash, now: now)
            run.add(changed.entries, changed.bytes)
        } else if run.keepsTrash, let auditID = run.auditID {
            for namespace in try connection.doomedNamespaces() {
                let partition =
                    try partitions[namespace.id]
                    ?? connection.insertTrashPartition(name: namespace.name, auditID: auditID, now: now)
                partitions[namespace.id] = partition
                try connection.moveDoomed(
                    from: namespace.id, to: partition, totals: (namespace.entries, namespace.bytes))
                run.add(namespace.entries, namespace.bytes)
            }
        } else {
            let deleted = try connection.deleteDoomed()
            run.add(deleted.entries, deleted.bytes)
        }
        if let auditID = run.auditID {
            try connection.finishAudit(auditID, entries: run.removed, bytes: run.bytes, now: nil)
        }
    }

    /// Records what the action removed and that it ended, journals it, then drops this
    /// process's memory copies. An action that had no room for its audit row at the start
    /// writes it now, whole; if there is still no room, the outcome says it was not audited.
    private func finish(_ target: AdminTarget, run: inout ActionRun, origin: ActionOrigin, targetJSON: String) throws {
        let now = store.now()
        let change = target.journalChange(at: run.start.time)
        func journal(_ connection: SQLiteConnection) throws {
            try connection.appendJournal(change, removed: run.removed, origin: store.origin, now: now)
        }
        do {
            try store.database.write(usingReserve: true) { connection in
                try connection.writeTransaction {
                    let auditID =
                        try run.auditID
                        ?? connection.insertAudit(
                            origin: origin, target: targetJSON, restores: nil, now: run.start.time)
                    try connection.finishAudit(auditID, entries: run.removed, bytes: run.bytes, now: now)
                    run.auditID = auditID
                    try journal(connection)
                }
            }
        } catch CacheError.diskFull where run.auditID == nil {
            // The journal matters more than the audit row: other apps' memory copies.
            try store.database.write(usingReserve: true) { connection in try journal(connection) }
        }
        for runtime in store.allRuntimes { runtime.drop(change) }
    }
}

/// The state of an action while it runs.
struct ActionRun {
    /// Its audit row; `nil` while the disk had no room for it.
    var auditID: Int64?
    /// When it started and the last row id then: entries written later are kept.
    let start: (time: Int64, lastRowID: Int64)
    /// Whether removed entries (or replaced expiry times) go to the trash (`false` for
    /// sweeps, and on a full disk).
    var keepsTrash: Bool
    /// Whether it ran short of disk (see ``ActionOutcome/wasDiskFull``).
    var wasDiskFull = false
    /// Entries selected that not even a batch of one had room to remove.
    var notRemoved = 0
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
