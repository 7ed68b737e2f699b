import CacheCore
import Foundation

extension RedisAdmin {
    /// Brings back what action `auditID` removed and records the undo in the audit log;
    /// returns how many entries came back. A key written again since keeps its new value. The
    /// undo of a TTL action puts back the replaced expiry times.
    ///
    /// An undone clear sets each namespace's generation back to the one it kept, merging the
    /// entries written since into it (the newer wins); it is refused when the namespace was
    /// cleared again or changed version since (undo the later action first). An action still
    /// running in another process cannot be undone until it ends; one whose process was
    /// killed can (what it had moved comes back). An undo marks the action `undone` only once
    /// it has finished: an undo that was killed or lost the server leaves the action
    /// restorable, and the next undo finishes it. It goes namespace by namespace (slot by slot
    /// on a cluster), noting in each namespace's ledger when it has finished there, so the
    /// next undo picks up where a killed one stopped.
    @discardableResult
    public func restore(_ auditID: Int64, origin: ActionOrigin = .current) throws -> Int {
        guard !store.isReadOnly else { throw CacheError.readOnly(path: store.endpoint) }
        try purgeTrash()
        let now = store.now()
        guard let record = try log.fields(auditID, now: now) else {
            throw CacheError.nothingToRestore(reason: "there is no action #\(auditID) in the audit log")
        }
        guard record.target?.isUndoable == true else {
            throw CacheError.nothingToRestore(
                reason: "action #\(auditID) kept nothing to restore (undos cannot be undone)")
        }
        if record.finished == nil && record.origin.isRunning {
            throw CacheError.nothingToRestore(
                reason: "action #\(auditID) is still running (pid \(record.origin.pid)); undo it once it has ended")
        }
        try claimUndo(auditID)
        let back: (entries: Int, bytes: Int)
        let undoID: Int64
        do {
            undoID = try log.begin(nil, restores: auditID, origin: origin, now: now)
        } catch {
            try? log.clear(auditID, "restoring")
            throw error
        }
        do {
            back = try undo(auditID, record)
        } catch {
            try? log.clear(auditID, "restoring")
            throw unfinished(auditID, by: error)
        }
        try log.update(auditID, [("set", "undone", RedisArgument(store.now())), ("del", "restoring", "")])
        try log.update(
            undoID,
            [
                ("set", "entries", RedisArgument(back.entries)), ("set", "bytes", RedisArgument(back.bytes)),
                ("set", "finished", RedisArgument(store.now())),
            ])
        return back.entries
    }

    /// `error` of an undo that may have brought part of action `auditID` back, saying it stays
    /// restorable (a refusal at `maxmemory` must not read as if nothing had happened).
    private func unfinished(_ auditID: Int64, by error: any Error) -> any Error {
        guard let error = error as? CacheError else { return error }
        let reason: String
        switch error {
        case .nothingToRestore: return error
        case .serverOutOfMemory(_, let message): reason = "out of memory (maxmemory): \(message)"
        default: reason = "\(error)"
        }
        return CacheError.serverError(
            endpoint: store.endpoint,
            message: "the undo of action #\(auditID) did not finish and stays restorable (restore it again to "
                + "finish): \(reason)")
    }

    /// Marks action `auditID` as being undone by this process; throws when it was undone
    /// already or another live process is undoing it. A claim left by a process that ended
    /// (killed mid-undo) or by this one (an undo that lost the server) is taken over.
    private func claimUndo(_ auditID: Int64) throws {
        let me = ActionOrigin.current
        let claimant = "\(me.pid)@\(me.host)"
        var answer = try log.claimUndo(auditID, by: claimant)
        if let holder = UndoClaim(answer), holder.text == claimant || !holder.origin.isRunning {
            answer = try log.claimUndo(auditID, by: claimant, takingOver: holder.text)
        }
        switch answer {
        case "ok": return
        case "undone": throw CacheError.nothingToRestore(reason: "action #\(auditID) was already undone")
        case "gone": throw CacheError.nothingToRestore(reason: "there is no action #\(auditID) in the audit log")
        default:
            let pid = UndoClaim(answer).map { "pid \($0.origin.pid)" } ?? "another process"
            throw CacheError.nothingToRestore(
                reason: "action #\(auditID) is being undone by \(pid); try again once it has ended")
        }
    }

    /// Brings back what action `auditID` (with `record`) removed or changed, namespace by
    /// namespace, skipping those an earlier undo finished; returns the entries and bytes.
    private func undo(_ auditID: Int64, _ record: RedisAuditLog.Fields) throws -> (entries: Int, bytes: Int) {
        let expiry: InvalidationSelector? = if case .expiry(let selector, _) = record.target { selector } else { nil }
        guard let namespaces = record.namespaces else {
            // A record from before ledgers (a standalone server): one pass over all it kept.
            if let expiry { return (try restoreExpiry(auditID, namespace: nil, selector: expiry), 0) }
            if record.cleared.isEmpty { return try restoreTrash(auditID, namespace: nil) }
            try refuseUnlessRestorable(record.cleared, auditID: auditID)
            return try record.cleared.reduce((0, 0)) { sum, generation in
                let back = try restore(generation, auditID: auditID)
                return (sum.0 + back.entries, sum.1 + back.bytes)
            }
        }
        // A namespace the action moved or changed nothing in (its ledger counts with each
        // move, atomically) has no trash to walk.
        let ledgers = try log.ledgers(auditID, namespaces: namespaces).filter {
            !$0.isRestored && ($0.entries > 0 || $0.cleared != nil)
        }
        try refuseUnlessRestorable(ledgers.compactMap(\.cleared), auditID: auditID)
        var back = (entries: 0, bytes: 0)
        for ledger in ledgers {
            let done = try whileSlotStays(ledger.namespace) {
                if let expiry {
                    (entries: try restoreExpiry(auditID, namespace: ledger.namespace, selector: expiry), bytes: 0)
                } else if let cleared = ledger.cleared {
                    try restore(cleared, auditID: auditID)
                } else {
                    try restoreTrash(auditID, namespace: ledger.namespace)
                }
            }
            try log.markRestored(auditID, namespace: ledger.namespace, now: store.now())
            back = (back.entries + done.entries, back.bytes + done.bytes)
        }
        return back
    }

    /// Renames action `auditID`'s trash keys in `namespace` (`nil`: a record from before
    /// ledgers, every namespace of a standalone server) back, batch by batch (a `SCAN` of the
    /// node serving the namespace).
    private func restoreTrash(_ auditID: Int64, namespace: String?) throws -> (entries: Int, bytes: Int) {
        let keys = store.keys
        let trash = namespace.map { keys.trash(auditID, namespace: $0) } ?? keys.trash(auditID)
        var restored = 0
        var bytes = 0
        try store.scanBatches(["SCAN"], on: trash, pattern: RedisKeys.glob(trash) + "*") { found in
            let byNamespace = Dictionary(
                grouping: found.compactMap { keys.parseTrash($0, of: auditID) }, by: \.namespace)
            for (namespace, entries) in byNamespace {
                let reply = try store.run(
                    .restoreEntries, keys: [keys.namespace(namespace)],
                    arguments: [
                        RedisArgument(keys.entries(namespace)), RedisArgument(keys.tags(namespace)),
                        RedisArgument(keys.trash(auditID, namespace: namespace)), RedisArgument(store.now()),
                    ] + entries.map { RedisArgument($0.key) })
                let parts = reply.array ?? []
                restored += Int(parts.first?.integer ?? 0)
                bytes += Int(parts.dropFirst().first?.integer ?? 0)
            }
            return true
        }
        return (restored, bytes)
    }

    /// Throws, before anything changes, when a namespace of `cleared` was cleared again or
    /// changed version since (one an interrupted undo set back already is restorable: it is
    /// only tidied and counted).
    private func refuseUnlessRestorable(_ cleared: [ClearedGeneration], auditID: Int64) throws {
        for generation in cleared where try !isRestorable(generation) {
            throw CacheError.nothingToRestore(
                reason: "namespace \(generation.namespace) was cleared again or changed version after action "
                    + "#\(auditID); undo the later action first")
        }
    }

    /// Merges what was written since the clear into the kept generation (copies first, so
    /// readers never miss them), switches back to it, moves what was written in between, and
    /// unlinks the emptied generation. Returns the entries that came back: what the namespace
    /// holds then, less what was written since the clear (kept, the newer wins).
    private func restore(_ generation: ClearedGeneration, auditID: Int64) throws -> (entries: Int, bytes: Int) {
        let keys = store.keys
        let name = generation.namespace
        let writtenSince = try measure(name, generation: generation.current)
        func merge(copying: Bool) throws {
            try forEachBatch(namespace: name, generation: generation.current, prefix: "") { batch in
                _ = try store.run(
                    .mergeEntries, keys: [keys.namespace(name)],
                    arguments: [
                        RedisArgument(keys.entries(name)), RedisArgument(keys.tags(name)),
                        RedisArgument(generation.current), RedisArgument(generation.kept), copying ? "1" : "0",
                    ] + batch.keys.map { RedisArgument($0) })
                return true
            }
        }
        // An undo interrupted after the switch resumes with the move (step 3).
        var switched: Int64 = 1
        if try self.generation(of: name) != generation.kept {
            try merge(copying: true)
            switched =
                try store.run(
                    .restoreGeneration, keys: [keys.namespace(name), keys.kept(name), keys.retired(name)],
                    arguments: [
                        RedisArgument(generation.kept), RedisArgument(generation.current),
                        RedisArgument(RedisKeys.escape(name)), RedisArgument(store.now()),
                    ]
                ).integer ?? 0
        }
        switch switched {
        case 1: break
        case -1:
            throw CacheError.nothingToRestore(reason: "the trash of action #\(auditID) was purged (kept 7 days)")
        default:
            throw CacheError.nothingToRestore(
                reason: "namespace \(name) was cleared again or changed version after action #\(auditID); "
                    + "undo the later action first")
        }
        try merge(copying: false)
        _ = try store.unlinkGeneration(generation.current, of: name)
        let held = try measure(name, generation: generation.kept)
        return (max(0, held.entries - writtenSince.entries), max(0, held.bytes - writtenSince.bytes))
    }

    /// The entries and bytes the kept generations of `cleared` hold now.
    func held(_ cleared: [ClearedGeneration]) throws -> (entries: Int, bytes: Int) {
        try cleared.map { try measure($0.namespace, generation: $0.kept) }.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
    }

    /// The entries and bytes of generation `generation` of namespace `name`.
    private func measure(_ name: String, generation: Int64) throws -> (entries: Int, bytes: Int) {
        var entries = 0
        var bytes = 0
        try forEachBatch(namespace: name, generation: generation, prefix: "") { batch in
            let measured = try measure(batch, generation: generation)
            entries += measured.keys.count
            bytes += measured.bytes
            return true
        }
        return (entries, bytes)
    }
}

extension RedisAdmin {
    /// Whether the namespace of `generation` is still at the generation its clear started,
    /// or was set back to the kept one by an undo that did not finish (the kept generation
    /// is no longer listed as kept then).
    fileprivate func isRestorable(_ generation: ClearedGeneration) throws -> Bool {
        switch try self.generation(of: generation.namespace) {
        case generation.current: return true
        case generation.kept:
            let member = RedisKeys.escape(generation.namespace) + ":\(generation.kept)"
            let kept = store.keys.kept(generation.namespace)
            return try store.redis(kept) { connection in
                try connection.command(["ZSCORE", RedisArgument(kept), RedisArgument(member)])
            } == .null
        default: return false
        }
    }
}

/// Who holds an undo claim (`pid@host`, as ``RedisAuditLog/claimUndo(_:by:takingOver:)`` writes it).
private struct UndoClaim {
    let text: String
    let origin: ActionOrigin

    init?(_ text: String) {
        guard let at = text.firstIndex(of: "@"), let pid = Int32(text[..<at]) else { return nil }
        self.text = text
        origin = ActionOrigin(user: "", host: String(text[text.index(after: at)...]), pid: pid, program: "")
    }
}
