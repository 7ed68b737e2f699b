import CacheCore
/// The keys of operator actions under a store's prefix (docs/REDIS.md, "Actions, audit and
/// trash"). An action's record is store-wide; what it changes in a namespace (its ledger,
/// trash and kept times) is in that namespace's slot, so one script per batch writes both the
/// change and its account.
extension RedisKeys {
    /// The counter audit ids come from (`INCR`).
    var auditSequence: String { storeWide("auditseq") }
    /// Audit ids scored by when the action started (ms): the log's index.
    var auditIndex: String { storeWide("audit") }
    /// The record of action `id`.
    func audit(_ id: Int64) -> String { storeWide("audit:\(id)") }
    /// The ledger of action `id` in namespace `name`: what it moved or changed there
    /// (`entries`, `bytes`), the generations a clear kept (`kept`, `current`), and `restored`
    /// once its undo has finished that namespace.
    func ledger(_ id: Int64, namespace name: String) -> String { prefix + "ledger:\(id):" + segment(name) }
    /// What the trash keys of action `id` start with; the namespace (as `segment(_:)` spells it), `:` and the key follow.
    func trash(_ id: Int64) -> String { prefix + "trash:\(id):" }
    /// What the trash keys of action `id` in namespace `name` start with; the key follows.
    func trash(_ id: Int64, namespace name: String) -> String { trash(id) + segment(name) + ":" }
    /// Generations kept as a clear's trash, as `<ns>:<generation>`, scored by when they are
    /// purged (ms): one set for the store on a standalone server, one per namespace (in its
    /// slot) on a cluster.
    func kept(_ name: String) -> String { isClustered ? prefix + "k:" + segment(name) : storeWide("kept") }

    /// The namespace and key of a trash key of action `id`; `nil` for other keys.
    func parseTrash(_ key: String, of id: Int64) -> (namespace: String, key: String)? {
        let start = trash(id)
        guard key.hasPrefix(start) else { return nil }
        let rest = key.dropFirst(start.count)
        guard let end = rest.firstIndex(of: ":") else { return nil }
        return (name(ofSegment: rest[..<end]), String(rest[rest.index(after: end)...]))
    }
}

extension RedisKeys {
    /// The hash of the expiry times TTL action `id` replaced in namespace `name` (`nil`: in
    /// every namespace, as records written before ledgers keep them): field `<ns>:<key>`
    /// (escaped namespace), value `[generation, c, x, s]` as JSON.
    func expiryTrash(_ id: Int64, namespace name: String?) -> String {
        guard let name else { return storeWide("expiry:\(id)") }
        return prefix + "expiry:\(id):" + segment(name)
    }
}
