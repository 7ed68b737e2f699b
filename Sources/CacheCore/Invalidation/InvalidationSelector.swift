/// What an invalidation removes. Keys are canonical key text (as ``Cache`` stores them).
///
/// In ``InvalidationRules`` and events, names, keys, prefixes and tags may hold `{parameter}`
/// placeholders.
public enum InvalidationSelector: Sendable, Hashable, Codable {
    /// One key of a namespace.
    case key(namespace: String, key: String)
    /// An explicit set of keys of a namespace.
    case keys(namespace: String, keys: [String])
    /// Every key of a namespace that starts with `prefix`.
    case prefix(namespace: String, prefix: String)
    /// Every entry carrying `tag`, in one namespace or (when `namespace` is `nil`) in all.
    case tag(String, namespace: String? = nil)
    /// Every entry of a namespace.
    case namespace(String)
    /// Every entry of every namespace.
    case all

    /// The namespace the selector is limited to, if it is.
    public var namespace: String? {
        switch self {
        case .key(let namespace, _), .keys(let namespace, _), .prefix(let namespace, _): namespace
        case .tag(_, let namespace): namespace
        case .namespace(let name): name
        case .all: nil
        }
    }

    /// The selector with its keys and prefix in Normalization Form C, as keys are stored
    /// (see ``CanonicalKey/normalized(_:)``).
    package var normalized: InvalidationSelector {
        switch self {
        case .key(let namespace, let key): .key(namespace: namespace, key: CanonicalKey.normalized(key))
        case .keys(let namespace, let keys): .keys(namespace: namespace, keys: keys.map(CanonicalKey.normalized))
        case .prefix(let namespace, let prefix): .prefix(namespace: namespace, prefix: CanonicalKey.normalized(prefix))
        case .tag, .namespace, .all: self
        }
    }

    /// Whether a memory entry of namespace `candidate` with a key and tags is selected: a test
    /// prepared once for many entries (a key list is looked up in a set, not searched per entry).
    func matcher(in candidate: String) -> (_ key: String, _ tags: [String]) -> Bool {
        guard namespace == nil || namespace == candidate else { return { _, _ in false } }
        switch self {
        case .key(_, let selected): return { key, _ in key == selected }
        case .keys(_, let selected):
            let selected = Set(selected)
            return { key, _ in selected.contains(key) }
        case .prefix(_, let prefix): return { key, _ in key.hasPrefix(prefix) }
        case .tag(let tag, _): return { _, tags in tags.contains(tag) }
        case .namespace, .all: return { _, _ in true }
        }
    }
}

extension InvalidationSelector: CustomStringConvertible {
    /// The keys a description of a key list names; it counts the others.
    static let keysShown = 5

    /// `key colors/10`, `keys colors/{1,2,3,4,5,… 95 more}`, `prefix planner/guests_`,
    /// `tag tenant:7`, `namespace colors`, `all`.
    public var description: String {
        switch self {
        case .key(let namespace, let key): "key \(namespace)/\(key)"
        case .keys(let namespace, let keys) where keys.count > Self.keysShown:
            "keys \(namespace)/{\(keys.prefix(Self.keysShown).joined(separator: ",")),… \(keys.count - Self.keysShown) more}"
        case .keys(let namespace, let keys): "keys \(namespace)/{\(keys.joined(separator: ","))}"
        case .prefix(let namespace, let prefix): "prefix \(namespace)/\(prefix)"
        case .tag(let tag, let namespace): namespace.map { "tag \(tag) in \($0)" } ?? "tag \(tag)"
        case .namespace(let namespace): "namespace \(namespace)"
        case .all: "all"
        }
    }
}

/// What an invalidation removed: one line per selector applied, the requested ones first,
/// then those that dependency rules added.
public struct InvalidationResult: Sendable, Hashable {
    /// One selector applied and what it removed.
    public struct Removal: Sendable, Hashable {
        /// The selector applied.
        public let selector: InvalidationSelector
        /// Entries removed from the file (or, for memory-only namespaces, from memory).
        public let removed: Int
        /// The selector whose rule added this one; `nil` when it was requested.
        public let cause: InvalidationSelector?
    }

    /// Every selector applied, in order.
    public let removals: [Removal]

    /// Entries removed in all.
    public var totalRemoved: Int { removals.reduce(0) { $0 + $1.removed } }
}
