import CacheCore

/// Actions named briefly for the dialog and the status line: `Invalidate 2 keys in products`.
enum ActionText {
    /// What `target` does, as a short phrase starting with a capital.
    static func title(_ target: AdminTarget) -> String {
        switch target {
        case .sweep(let namespace): "Sweep expired entries of \(namespace ?? "all namespaces")"
        case .clear(let namespace): "Clear \(namespace)"
        case .clearAll: "Clear everything"
        case .invalidate(let selector):
            switch selector {
            case .key(let namespace, let key): "Invalidate \(namespace)/\(key)"
            case .keys(let namespace, let keys): "Invalidate \(Formatting.count(keys.count)) keys in \(namespace)"
            case .prefix(let namespace, let prefix): "Invalidate keys starting '\(prefix)' in \(namespace)"
            case .tag(let tag, let namespace): "Invalidate tag '\(tag)'" + (namespace.map { " in \($0)" } ?? "")
            case .namespace(let namespace): "Invalidate all of \(namespace)"
            case .all: "Invalidate everything"
            }
        }
    }
}
