import TerminalUI
import CacheCore

/// Actions named briefly for the dialog and the status line: `Invalidate 2 keys in products`.
package enum ActionText {
    /// What `target` does, as a short phrase starting with a capital; a key deletion says how
    /// many `keys` it deletes where known (`Delete 3 keys under prefix 'user:'`).
    package static func title(_ target: AdminTarget, keys: Int? = nil) -> String {
        switch target {
        case .sweep(let namespace, let keepingStaleWindow):
            "Sweep expired entries of \(namespace ?? "all namespaces")"
                + (keepingStaleWindow ? ", keeping the stale window" : "")
        case .clear(let namespace): "Clear \(namespace)"
        case .clearAll: "Clear everything"
        case .invalidate(let selector): "Invalidate " + what(selector)
        case .expiry(let selector, let change):
            "\(String(change.description.prefix(1)).uppercased())\(change.description.dropFirst()) of " + what(selector)
        case .importEntries(let record): "Import \(Formatting.count(record.entries)) entries into \(record.namespace)"
        case .deleteKeys(let selector): deletion(selector, keys: keys).capitalizedFirst
        }
    }

    /// What a key deletion deletes: `delete key 'user:1'`, `delete 3 marked keys`,
    /// `delete 3 keys under prefix 'user:'` (`keys`: how many, where known).
    package static func deletion(_ selector: InvalidationSelector, keys: Int?) -> String {
        let counted = { (count: Int) in "\(Formatting.count(count)) \(count == 1 ? "key" : "keys")" }
        return switch selector {
        case .key(_, let key): "delete key '\(key)'"
        case .keys(_, let named): "delete \(Formatting.count(keys ?? named.count)) marked \((keys ?? named.count) == 1 ? "key" : "keys")"
        case .prefix(_, let prefix): "delete \(keys.map(counted) ?? "the keys") under prefix '\(prefix)'"
        default: "delete the keys of \(selector)"
        }
    }

    /// What a compaction did: `Compacted: 2.1 MB → 96.0 kB on disk (gave back 2.0 MB).`
    package static func compacted(_ outcome: CompactionOutcome) -> String {
        (outcome.isCancelled ? "Stopped. " : "")
            + "Compacted: \(Formatting.bytes(outcome.before.diskBytes)) → \(Formatting.bytes(outcome.after.diskBytes)) "
            + "on disk (gave back \(Formatting.bytes(outcome.freedBytes)))."
    }

    /// What a run did: `Removed 2,500 entries (1.2 MB).`, `Changed the expiry of 3 entries (420 B).`,
    /// `Wrote 12 entries (3.1 kB).` (an import),
    /// and on a full disk `Disk full: cleared 880 entries (1.8 MB) without keeping them for undo.`
    /// with what it could not do.
    package static func done(_ result: ActionResult) -> String {
        let outcome = result.outcome
        let entries = Formatting.entries(outcome.removed)
        let bytes = Formatting.bytes(outcome.bytes)
        var line = "Removed \(entries) (\(bytes))."
        if case .expiry = result.target {
            line = "Changed the expiry of \(entries) (\(bytes))."
        } else if case .deleteKeys = result.target {
            line = "Deleted \(Formatting.count(outcome.removed)) \(outcome.removed == 1 ? "key" : "keys") (\(bytes))."
        } else if case .importEntries = result.target {
            line = "Wrote \(entries) (\(bytes))."
        } else if result.target.isUndoable && outcome.wasDiskFull && !outcome.isUndoable && outcome.removed > 0 {
            let verb = if case .invalidate = result.target { "removed" } else { "cleared" }
            line = "Disk full: \(verb) \(entries) (\(bytes)) without keeping them for undo."
        }
        if outcome.notRemoved > 0 {
            line +=
                " \(Formatting.entries(outcome.notRemoved)) could not be removed: the disk had no room left even to delete one."
        }
        if !outcome.isAudited { line += " The disk had no room for its audit row." }
        return line
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
