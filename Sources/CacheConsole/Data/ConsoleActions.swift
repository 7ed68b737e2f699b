import TerminalUI
import CacheCore
import Foundation

/// The console's actions on either store, through the ``ActionController``: how a filter
/// becomes a selector (``FilterSelector``), preview, run, undo, and the audit log as rows.
struct ConsoleActions: Sendable {
    /// `nil` when the store is read-only: every action is refused.
    let controller: ActionController?
    /// The store's location, for the read-only error.
    let location: String
    /// How a filter becomes a selector.
    let filters: FilterSelector

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
            let selector = try filters.selector(namespace: namespace, filter: text)
            return try actions.prepare(expiry.map { .expiry(selector: selector, change: $0) } ?? .invalidate(selector))
        case .importFile(let path, let namespace):
            _ = try actions.importer()
            guard let data = FileManager.default.contents(atPath: ExportRequest.expandingHome(path)) else {
                throw ConsoleError("cannot read \(path); nothing was imported")
            }
            let (name, entries) = try EntryImportReader.entries(of: data, namespace: namespace)
            return try actions.prepareImport(entries, into: name)
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
}
