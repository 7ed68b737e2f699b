import Foundation

extension Admin {
    /// Brings back what action `auditID` removed (keys written again since keep their new
    /// value; entries keep their place in "oldest first" order) and records the restore in the
    /// audit log. Returns how many came back.
    ///
    /// An action still running in another process cannot be undone until it ends; one whose
    /// process was killed can (what it had removed comes back).
    @discardableResult
    public func restore(_ auditID: Int64, origin: ActionOrigin = .current) throws -> Int {
        try undo(auditID, origin: origin).restored
    }

    /// Undoes action `auditID` as ``restore(_:origin:)`` does; returns how many entries came
    /// back and, for an import, how many imported entries it deleted (those nothing wrote since).
    @discardableResult
    public func undo(_ auditID: Int64, origin: ActionOrigin = .current) throws -> (restored: Int, deletedImports: Int) {
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
        if record.finishedAt == nil && record.origin.isRunning {
            throw CacheError.nothingToRestore(
                reason: "action #\(auditID) is still running (pid \(record.origin.pid)); undo it once it has ended")
        }
        var restored = 0
        var bytes = 0
        var deletedImports = 0
        if case .importEntries(let imported) = record.target {
            deletedImports = try deleteImported(imported, at: record.at)
        }
        for partition in try store.database.read({ try $0.partitions(auditID: auditID) }) {
            let back = try partition.whole ? restoreWhole(partition) : restoreEntries(partition)
            restored += back.entries
            bytes += back.bytes
        }
        if case .expiry(let selector, _) = record.target {
            restored += try restoreExpiry(auditID, start: record.at, selector: selector)
        }
        let now = store.now()
        try store.database.write { connection in
            try connection.writeTransaction {
                try connection.markUndone(auditID, at: now)
                let restoreID = try connection.insertAudit(origin: origin, target: nil, restores: auditID, now: now)
                try connection.finishAudit(restoreID, entries: restored, bytes: bytes, now: now)
            }
        }
        return (restored, deletedImports)
    }

    /// Puts back the expiry times an expiry action replaced, batch by batch (a restore does not
    /// use the room kept for removals, and stops on a full disk), then journals its
    /// selector so running apps drop memory copies that carry the changed times.
    private func restoreExpiry(_ auditID: Int64, start: Int64, selector: InvalidationSelector) throws -> Int {
        var restored = 0
        try store.moveBatches.run(
            usingReserve: false, onDiskFull: { .fail },
            batch: { connection, limit in
                let batch = try connection.restoreExpiryBatch(auditID: auditID, start: start, limit: limit)
                return (batch.restored, batch.taken, batch.taken < limit)
            },
            committed: {
                restored += $0
                return true
            })
        let now = store.now()
        try store.database.write {
            try $0.appendInvalidation(selector, removed: restored, origin: store.origin, now: now)
        }
        for runtime in store.allRuntimes { runtime.drop(selector) }
        return restored
    }

    /// Puts a cleared namespace back in one transaction.
    private func restoreWhole(_ partition: (id: Int64, name: String, whole: Bool)) throws -> (entries: Int, bytes: Int)
    {
        let now = store.now()
        return try store.database.write { connection in
            try connection.writeTransaction {
                try connection.restoreWholePartition(partition.id, name: partition.name, now: now)
            }
        }
    }

    /// Moves a trash partition's entries back into their namespace, batch by batch.
    private func restoreEntries(_ partition: (id: Int64, name: String, whole: Bool)) throws -> (
        entries: Int, bytes: Int
    ) {
        var total = (entries: 0, bytes: 0)
        try store.moveBatches.run(
            usingReserve: false, onDiskFull: { .fail },
            batch: { connection, limit in
                let namespaceID =
                    try connection.namespaceRow(name: partition.name)?.id
                    ?? connection.insertNamespace(name: partition.name, version: "", policyJSON: "{}", now: store.now())
                let batch = try connection.restoreTrashBatch(partition: partition.id, into: namespaceID, limit: limit)
                let isLast = batch.taken < limit
                if isLast { try connection.deletePartitionRow(partition.id) }
                return (batch, batch.taken, isLast)
            },
            committed: { batch in
                total = (total.entries + batch.restored, total.bytes + batch.bytes)
                return true
            })
        return total
    }
}

extension ActionOrigin {
    /// Whether the process that ran an action may still be running: it is on this machine and
    /// alive. (A process on another machine cannot be asked; it is taken as ended.)
    package var isRunning: Bool {
        host == ProcessInfo.processInfo.hostName && (kill(pid, 0) == 0 || errno == EPERM)
    }
}
