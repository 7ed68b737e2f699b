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
    /// killed can (what it had moved comes back).
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
        guard try log.claim(auditID, "undone", now: now) else {
            throw CacheError.nothingToRestore(reason: "action #\(auditID) was already undone")
        }
        let back: (entries: Int, bytes: Int)
        do {
            if case .expiry(let selector, _) = record.target {
                back = (try restoreExpiry(auditID, selector: selector), 0)
            } else {
                back =
                    record.cleared.isEmpty
                    ? try restoreTrash(auditID) : try restoreCleared(record.cleared, auditID: auditID)
            }
        } catch {
            try? log.clear(auditID, "undone")
            throw error
        }
        let undoID = try log.begin(nil, restores: auditID, origin: origin, now: now)
        try log.add(undoID, entries: back.entries, bytes: back.bytes)
        try log.set(undoID, [("finished", RedisArgument(store.now()))])
        return back.entries
    }

    /// Renames action `auditID`'s trash keys back, batch by batch (a `SCAN` of the keyspace).
    private func restoreTrash(_ auditID: Int64) throws -> (entries: Int, bytes: Int) {
        let keys = store.keys
        var restored = 0
        var bytes = 0
        try store.scanBatches(["SCAN"], pattern: RedisKeys.glob(keys.trash(auditID)) + "*") { found in
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

    /// Sets each cleared namespace back to the generation it kept.
    private func restoreCleared(_ cleared: [ClearedGeneration], auditID: Int64) throws -> (entries: Int, bytes: Int) {
        for generation in cleared where try self.generation(of: generation.namespace) != generation.current {
            throw CacheError.nothingToRestore(
                reason: "namespace \(generation.namespace) was cleared again or changed version after action "
                    + "#\(auditID); undo the later action first")
        }
        var restored = 0
        var bytes = 0
        for generation in cleared {
            let back = try restore(generation, auditID: auditID)
            restored += back.entries
            bytes += back.bytes
        }
        return (restored, bytes)
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
        try merge(copying: true)
        let switched = try store.run(
            .restoreGeneration, keys: [keys.namespace(name), keys.keptGenerations, keys.retired],
            arguments: [
                RedisArgument(generation.kept), RedisArgument(generation.current),
                RedisArgument(RedisKeys.escape(name)), RedisArgument(store.now()),
            ]
        ).integer
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
