import CacheCore
import Foundation
import Synchronization

/// A foreign cache's actions as ``StoreAdministering``, so the console's one action path
/// (preview, typed confirmation, run with progress, undo, audit log) works on it. A preview
/// captures its rows, and running the same target removes those rows: the count the operator
/// confirmed is the count removed.
package final class ForeignAdmin: StoreAdministering {
    private let cache: ForeignCache
    private let captured = Mutex<[AdminTarget: ForeignActionPreview]>([:])
    private let clock: @Sendable () -> Int64

    /// Actions on `cache`, timed by `clock` (ms since 1970).
    package init(cache: ForeignCache, clock: @escaping @Sendable () -> Int64) {
        self.cache = cache
        self.clock = clock
    }

    package func preview(_ target: AdminTarget) throws -> ActionImpact {
        let (namespace, selection) = try Self.selection(target, names: { try cache.namespaceNames() })
        var preview = try cache.preview(selection, namespace: namespace, now: clock())
        let origin = ActionOrigin.current
        preview.who = "\(origin.user)@\(origin.host)"
        preview.target = (try? JSONEncoder().encode(target)).map { String(decoding: $0, as: UTF8.self) }
        captured.withLock { $0[target] = preview }
        return ActionImpact(
            entries: preview.entries, bytes: Int(clamping: preview.bytes), recentHitShare: nil,
            sampleKeys: preview.sampleKeys(5))
    }

    package func run(_ target: AdminTarget, origin: ActionOrigin, progress: ((ActionProgress) -> Bool)?) throws
        -> ActionOutcome
    {
        if captured.withLock({ $0[target] }) == nil { _ = try preview(target) }
        guard let preview = captured.withLock({ $0.removeValue(forKey: target) }) else {
            throw ForeignCacheError("the action was not measured")
        }
        let result = try cache.run(preview, now: clock()) { done, total in
            progress?(ActionProgress(done: done, total: total)) ?? true
        }
        return ActionOutcome(
            auditID: result.actionID, removed: result.removed, bytes: Int(clamping: preview.bytes),
            isUndoable: true, isCancelled: result.removed + result.skipped < preview.entries)
    }

    package func restore(_ auditID: Int64, origin: ActionOrigin) throws -> Int {
        try cache.undo(action: auditID, now: clock())
    }

    package func auditLog(limit: Int) throws -> [AuditRecord] {
        try cache.actions().prefix(limit).map(Self.record)
    }

    package func auditRecord(_ id: Int64) throws -> AuditRecord? {
        try cache.actions().first { $0.id == id }.map(Self.record)
    }

    private static func record(_ action: ForeignActionRecord) -> AuditRecord {
        let parts = action.who.split(separator: "@", maxSplits: 1).map(String.init)
        return AuditRecord(
            id: action.id, at: action.at,
            origin: ActionOrigin(
                user: parts.first ?? "", host: parts.count > 1 ? parts[1] : "", pid: 0, program: "cachedeck"),
            target: action.target.flatMap { try? JSONDecoder().decode(AdminTarget.self, from: Data($0.utf8)) },
            restoredAuditID: nil, entries: action.entries, bytes: Int(clamping: action.bytes),
            undoneAt: action.undoneAt, canUndo: action.undoneAt == nil, sampleKeys: [], finishedAt: action.at)
    }

    /// The namespace and rows `target` names; what a foreign cache cannot do is refused.
    static func selection(_ target: AdminTarget, names: () throws -> [String]) throws -> (String, ForeignSelection) {
        switch target {
        // A foreign cache has no stale window: a sweep removes every expired entry either way.
        case .sweep(let namespace?, _): return (namespace, .expired)
        case .sweep(nil, _):
            let all = try names()
            guard all.count == 1 else { throw ForeignCacheError("sweep one namespace at a time in this cache") }
            return (all[0], .expired)
        case .clear(let namespace), .invalidate(.namespace(let namespace)): return (namespace, .filter(EntryFilter()))
        case .invalidate(.key(let namespace, let key)): return (namespace, .keys([key]))
        case .invalidate(.keys(let namespace, let keys)): return (namespace, .keys(keys))
        case .invalidate(.prefix(let namespace, let prefix)): return (namespace, .filter(EntryFilter([.keyPrefix(prefix)])))
        case .invalidate(.tag(let tag, let namespace?)): return (namespace, .filter(EntryFilter([.tag(tag)])))
        case .clearAll, .invalidate(.all), .invalidate(.tag(_, nil)):
            throw ForeignCacheError("act on one namespace at a time in this cache")
        case .expiry:
            throw ForeignCacheError("CacheDeck does not change expiry times in other libraries' caches")
        case .importEntries:
            throw ForeignCacheError("CacheDeck does not import into other libraries' caches")
        case .deleteKeys:
            throw ForeignCacheError("keys are deleted in Redis keyspaces; invalidate this cache's entries")
        }
    }
}
