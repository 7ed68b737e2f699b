/// What an admin action removes.
public enum AdminTarget: Sendable, Hashable, Codable {
    /// Entries past their expiry and stale window, in one namespace or all.
    case sweep(namespace: String?)
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

    /// Whether the removed rows are kept in the trash for ``Admin/restore(_:)``. A sweep
    /// removes only entries that no read may return any more, so it keeps nothing.
    public var isUndoable: Bool {
        if case .sweep = self { false } else { true }
    }

    /// The namespace the action is limited to, if it is.
    public var namespace: String? {
        switch self {
        case .sweep(let namespace): namespace
        case .clear(let namespace): namespace
        case .clearAll: nil
        case .invalidate(let selector), .expiry(let selector, _): selector.namespace
        }
    }

    /// What running processes must drop from memory afterwards (`nil` for a sweep: expired
    /// copies are never served from memory either).
    var journalSelector: InvalidationSelector? {
        switch self {
        case .sweep: nil
        case .clear(let namespace): .namespace(namespace)
        case .clearAll: .all
        case .invalidate(let selector), .expiry(let selector, _): selector
        }
    }
}

extension AdminTarget: CustomStringConvertible {
    /// `sweep colors`, `clear colors`, `clear all`, `invalidate tag tenant:7`,
    /// `set TTL 1h of tag tenant:7`.
    public var description: String {
        switch self {
        case .sweep(let namespace): namespace.map { "sweep \($0)" } ?? "sweep all"
        case .clear(let namespace): "clear \(namespace)"
        case .clearAll: "clear all"
        case .invalidate(let selector): "invalidate \(selector)"
        case .expiry(let selector, let change): "\(change) of \(selector)"
        }
    }
}
