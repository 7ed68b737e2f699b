import CacheCore

/// Actions named briefly for the dialog and the status line: `Invalidate 2 keys in products`.
package enum ActionText {
    /// What `target` does, as a short phrase starting with a capital.
    package static func title(_ target: AdminTarget) -> String {
        switch target {
        case .sweep(let namespace): "Sweep expired entries of \(namespace ?? "all namespaces")"
        case .clear(let namespace): "Clear \(namespace)"
        case .clearAll: "Clear everything"
        case .invalidate(let selector): "Invalidate " + what(selector)
        case .expiry(let selector, let change):
            "\(String(change.description.prefix(1)).uppercased())\(change.description.dropFirst()) of " + what(selector)
        }
    }

    /// What a run did: `Removed 2,500 entries (1.2 MB).`, `Changed the expiry of 3 entries (420 B).`
    package static func done(_ result: ActionResult) -> String {
        let count = result.outcome.removed
        let entries = "\(Formatting.count(count)) \(count == 1 ? "entry" : "entries")"
        let verb = if case .expiry = result.target { "Changed the expiry of" } else { "Removed" }
        return "\(verb) \(entries) (\(Formatting.bytes(result.outcome.bytes)))."
    }

    /// What `selector` selects: `2 keys in products`, `tag 'sale' in products`.
    private static func what(_ selector: InvalidationSelector) -> String {
        switch selector {
        case .key(let namespace, let key): "\(namespace)/\(key)"
        case .keys(let namespace, let keys): "\(Formatting.count(keys.count)) keys in \(namespace)"
        case .prefix(let namespace, let prefix): "keys starting '\(prefix)' in \(namespace)"
        case .tag(let tag, let namespace): "tag '\(tag)'" + (namespace.map { " in \($0)" } ?? "")
        case .namespace(let namespace): "all of \(namespace)"
        case .all: "everything"
        }
    }
}
