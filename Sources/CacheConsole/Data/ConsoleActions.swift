import TerminalUI
import CacheCore

/// The console's actions on either store, through the ``ActionController``: how a filter
/// becomes a selector, preview, run, undo, and the audit log as rows.
struct ConsoleActions: Sendable {
    /// Filters that match more entries than this cannot be invalidated key by key (the
    /// action and its audit record name every key); `*` says so when it marks them.
    static let maximumKeysPerAction = 100_000

    /// The selector that acts on what `filter` matches without listing its keys: the whole
    /// namespace, one prefix or one tag; `nil` when the action must list the keys.
    static func directSelector(namespace: String, filter: EntryFilter) -> InvalidationSelector? {
        if filter.terms.isEmpty { return .namespace(namespace) }
        guard filter.terms.count == 1 else { return nil }
        switch filter.terms[0] {
        case .keyPrefix(let prefix): return .prefix(namespace: namespace, prefix: prefix)
        case .tag(let tag): return .tag(tag, namespace: namespace)
        default: return nil
        }
    }

    /// One page of the keys a filter matches, and where the next page starts (`nil`: none).
    typealias KeyPage = (keys: [String], next: String?)

    /// `nil` when the store is read-only: every action is refused.
    let controller: ActionController?
    /// The store's location, for the read-only error.
    let location: String
    /// The keys of a namespace that a filter matches, a page at a time from a start token.
    let matchingKeys: @Sendable (_ namespace: String, _ filter: EntryFilter, _ after: String?) throws -> KeyPage

    /// The audit log's newest `limit` rows as the Audit view shows them.
    func auditLog(limit: Int, of admin: any StoreAdministering) throws -> [AuditEntry] {
        try admin.auditLog(limit: limit).map(AuditEntry.init)
    }

    /// Measures the action; a filter becomes a prefix, a tag, the whole namespace or its
    /// matching keys.
    func prepare(_ request: ActionRequest) throws -> PendingAction {
        let actions = try writable()
        switch request {
        case .target(let target):
            return try actions.prepare(target)
        case .matching(let namespace, let text, let expiry):
            let selector = try selector(namespace: namespace, filter: text)
            return try actions.prepare(expiry.map { .expiry(selector: selector, change: $0) } ?? .invalidate(selector))
        }
    }

    /// Runs `pending` if `answer` confirms it.
    func run(_ pending: PendingAction, answer: String, progress: @escaping (ActionProgress) -> Bool) throws
        -> ActionResult?
    {
        try writable().run(pending, answer: answer, progress: progress)
    }

    /// Undoes the action with audit id `auditID`.
    func undo(auditID: Int64) throws -> UndoOutcome {
        try writable().undo(UndoHandle(auditID: auditID, summary: "action #\(auditID)"))
    }

    private func writable() throws -> ActionController {
        guard let controller else { throw CacheError.readOnly(path: location) }
        return controller
    }

    private func selector(namespace: String, filter text: String) throws -> InvalidationSelector {
        let filter = try EntryFilter(parsing: text)
        if let direct = Self.directSelector(namespace: namespace, filter: filter) { return direct }
        var keys: [String] = []
        var after: String?
        repeat {
            let page = try matchingKeys(namespace, filter, after)
            keys += page.keys
            after = page.next
            guard keys.count <= Self.maximumKeysPerAction else {
                throw ConsoleError(
                    "the filter matches more than \(Formatting.count(Self.maximumKeysPerAction)) entries; "
                        + "narrow it, or use prefix: or tag:")
            }
        } while after != nil
        guard !keys.isEmpty else { throw ConsoleError("no entry matches '\(text)'") }
        return keys.count == 1 ? .key(namespace: namespace, key: keys[0]) : .keys(namespace: namespace, keys: keys)
    }
}
