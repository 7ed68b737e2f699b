/// What an admin action removes.
public enum AdminTarget: Sendable, Hashable, Codable {
    /// Every expired entry, in one namespace or all, stale window or not (an operator's sweep
    /// removes what the timeline counts as expired); with `keepingStaleWindow`, only those past
    /// their stale window, as automatic maintenance sweeps. Running processes drop the swept
    /// entries from their memory tiers (through the journal).
    case sweep(namespace: String?, keepingStaleWindow: Bool = false)
    /// Every entry of a namespace.
    case clear(namespace: String)
    /// Every entry of every namespace.
    case clearAll
    /// What an invalidation selector selects (key, keys, prefix, tag …). Dependency rules are
    /// not applied: an operator removes exactly what the preview showed.
    case invalidate(InvalidationSelector)
    /// Changes when what the selector selects expires (nothing is removed; the old times go
    /// to the trash, so it can be undone).
    case expiry(selector: InvalidationSelector, change: ExpiryChange)
    /// Entries written by ``Admin/importEntries(_:into:origin:)`` (run through that method,
    /// never through ``Admin/run(_:origin:progress:)``, which refuses it).
    case importEntries(record: ImportRecord)
    /// Keys of a Redis keyspace, not a store's entries: a `key`, `keys` or `prefix` selector
    /// whose namespace is `keys` (the keyspace's key deletions run it; stores refuse it).
    case deleteKeys(InvalidationSelector)

    /// Whether the removed rows are kept in the trash for ``Admin/restore(_:)``. A sweep
    /// removes only entries no ordinary read returns any more, so it keeps nothing.
    public var isUndoable: Bool {
        if case .sweep = self { false } else { true }
    }

    /// The namespace the action is limited to, if it is.
    public var namespace: String? {
        switch self {
        case .sweep(let namespace, _): namespace
        case .clear(let namespace): namespace
        case .clearAll: nil
        case .invalidate(let selector), .expiry(let selector, _), .deleteKeys(let selector): selector.namespace
        case .importEntries(let record): record.namespace
        }
    }

    /// The target with its selector's keys normalized (see ``InvalidationSelector/normalized``).
    package var normalized: AdminTarget {
        switch self {
        case .invalidate(let selector): .invalidate(selector.normalized)
        case .expiry(let selector, let change): .expiry(selector: selector.normalized, change: change)
        case .sweep, .clear, .clearAll, .importEntries, .deleteKeys: self
        }
    }

    /// What running processes must drop from memory afterwards, the action run at `now`.
    func journalChange(at now: Int64) -> JournalChange {
        switch self {
        case .sweep(let namespace, let keepingStaleWindow):
            .swept(namespace: namespace, at: now, keepingStaleWindow: keepingStaleWindow)
        case .clear(let namespace): .invalidated(.namespace(namespace))
        case .clearAll: .invalidated(.all)
        case .invalidate(let selector), .expiry(let selector, _), .deleteKeys(let selector): .invalidated(selector)
        case .importEntries(let record): .invalidated(.namespace(record.namespace))
        }
    }
}

extension AdminTarget: CustomStringConvertible {
    /// `sweep colors`, `sweep all, keeping the stale window`, `clear colors`, `clear all`, `invalidate tag tenant:7`,
    /// `set TTL 1h of tag tenant:7`, `import 12 entries into colors`, `delete key user:1`,
    /// `delete 3 keys`, `delete the keys under prefix user:`.
    public var description: String {
        switch self {
        case .sweep(let namespace, let keepingStaleWindow):
            (namespace.map { "sweep \($0)" } ?? "sweep all") + (keepingStaleWindow ? ", keeping the stale window" : "")
        case .clear(let namespace): "clear \(namespace)"
        case .clearAll: "clear all"
        case .invalidate(let selector): "invalidate \(selector)"
        case .expiry(let selector, let change): "\(change) of \(selector)"
        case .importEntries(let record):
            "import \(record.entries) \(record.entries == 1 ? "entry" : "entries") into \(record.namespace)"
        case .deleteKeys(.key(_, let key)): "delete key \(key)"
        case .deleteKeys(.keys(_, let keys)): "delete \(keys.count) \(keys.count == 1 ? "key" : "keys")"
        case .deleteKeys(.prefix(_, let prefix)): "delete the keys under prefix \(prefix)"
        case .deleteKeys(let selector): "delete the keys of \(selector)"
        }
    }
}
