import CacheCore
import Foundation

/// Operator actions on a ``RedisStore``, as `Admin` gives them on a file: preview, run with
/// progress and stop, undo, and an audit log of who did what, all under the store's prefix.
///
/// ```swift
/// let admin = redisStore.admin
/// let impact = try admin.preview(.clear(namespace: "tiles"))
/// let outcome = try admin.run(.clear(namespace: "tiles"))
/// try admin.restore(outcome.auditID)                           // undo
/// ```
///
/// A clear moves the namespace to a new generation at once and keeps the old one as the
/// action's trash; its undo sets the generation back, merging entries written since (the
/// newer wins). Actions and undos go namespace by namespace, that is slot by slot on a
/// Redis Cluster, each namespace's part atomic with its ledger (see ``RedisAuditLog``). Other actions `RENAME` the entries they select into trash keys in atomic
/// batches of 1,000, so apps' reads and writes interleave; undo renames them back unless the
/// key was written again. TTL actions rewrite the entries' times in the same batches, keeping
/// the old ones for the undo. The trash and the audit log last `Admin/trashRetention`.
/// Sweeps are refused: Redis expires entries itself (docs/REDIS.md).
public struct RedisAdmin: StoreAdministering {
    let store: RedisStore

    var log: RedisAuditLog { RedisAuditLog(store: store) }
    var retention: Int64 { Admin.trashRetention.milliseconds }

    /// What `target` would remove now, counted exactly by walking what it selects (a `SCAN`
    /// of the keyspace, or of the tag's set, 1,000 keys a call). Changes nothing. Throws
    /// `InspectorError/noSuchNamespace(_:)` for a namespace the server lacks. Redis keeps no
    /// hits per key, so `ActionImpact/recentHitShare` is `nil` (unknown).
    public func preview(_ target: AdminTarget) throws -> ActionImpact {
        let selector = try selector(of: target)
        var entries = 0
        var bytes = 0
        var samples: [String] = []
        try forEachBatch(of: selector) { batch in
            guard let generation = try generation(of: batch.namespace) else { return true }
            let measured = try measure(batch, generation: generation)
            entries += measured.keys.count
            bytes += measured.bytes
            samples += measured.keys.prefix(10 - samples.count).map { "\(batch.namespace)/\($0)" }
            return true
        }
        return ActionImpact(entries: entries, bytes: bytes, recentHitShare: nil, sampleKeys: samples)
    }

    /// The newest `limit` audit records, newest first (those of the last `Admin/trashRetention`).
    public func auditLog(limit: Int = 100) throws -> [AuditRecord] {
        try log.records(limit: limit, now: store.now())
    }

    /// Audit record `id`, or `nil` when it is gone or past the retention.
    public func auditRecord(_ id: Int64) throws -> AuditRecord? {
        try log.record(id, now: store.now())
    }

    /// Unlinks the generations clears kept that are past the retention (each action run or
    /// undone does this first); returns how many entries it unlinked. Trash keys of other
    /// actions expire on the server on their own.
    @discardableResult
    public func purgeTrash() throws -> Int {
        let keys = store.keys
        // One set for a standalone server; one per namespace, in its slot, on a cluster.
        let sets = keys.isClustered ? try store.namespaceNames().map(keys.kept) : [keys.kept("")]
        var removed = 0
        for set in sets {
            let due = try store.redis(set) { connection in
                try connection.command(["ZRANGEBYSCORE", RedisArgument(set), "-inf", RedisArgument(store.now())])
            }
            for member in (due.array ?? []).compactMap(\.string) {
                guard let colon = member.lastIndex(of: ":"), let generation = Int64(member[member.index(after: colon)...])
                else { continue }
                let namespace = RedisKeys.unescape(String(member[..<colon]))
                _ = try store.redis(set) { connection in
                    try connection.pipeline([
                        ["SADD", RedisArgument(keys.retired(namespace)), RedisArgument(member)],
                        ["ZREM", RedisArgument(set), RedisArgument(member)],
                    ])
                }
                removed += try store.unlinkGeneration(generation, of: namespace)
            }
        }
        return removed
    }

    /// The selector of what `target` removes; throws for what Redis does not do and for a
    /// namespace the server lacks.
    func selector(of target: AdminTarget) throws -> InvalidationSelector {
        let selector: InvalidationSelector
        switch target {
        case .sweep:
            throw CacheError.unsupported(
                feature: "sweep on Redis",
                reason: "Redis removes expired entries itself, at the end of their stale window")
        case .clear(let name): selector = .namespace(name)
        case .clearAll: selector = .all
        case .invalidate(let chosen), .expiry(let chosen, _): selector = chosen.normalized
        case .importEntries:
            throw CacheError.unsupported(feature: "import on Redis", reason: "cachedeck imports into cache files only")
        case .deleteKeys:
            throw CacheError.unsupported(
                feature: "deleting keys through a RedisStore", reason: "the keyspace's key deletions do (cachedeck del)")
        }
        if let name = target.namespace, try generation(of: name) == nil { throw InspectorError.noSuchNamespace(name) }
        return selector
    }
}

extension RedisStore {
    /// Operator actions: preview, run, audit and undo. See ``RedisAdmin``.
    public var admin: RedisAdmin { RedisAdmin(store: self) }

    /// Whether the store was opened read-only (`StoreOptions/readOnly`): writes and actions are refused.
    public var isReadOnly: Bool { options.readOnly }
}
