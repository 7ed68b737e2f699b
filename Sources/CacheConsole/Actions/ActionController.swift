import TerminalUI
import CacheCore
import CacheCoreRedis

/// The one path every destructive action takes, from the CLI and from the console: build the
/// preview, ask for confirmation under a fixed policy, run, and hand back the undo handle.
///
/// It does no terminal I/O and knows no storage: it acts through ``StoreAdministering``, so
/// a cache file and a Redis server take the same path. Callers show ``PendingAction/prompt``
/// their own way and pass back what the operator typed.
package struct ActionController: Sendable {
    private let admin: any StoreAdministering
    private let isReadOnly: Bool
    /// Where the store is (a file's path, a server's endpoint), for messages and undo hints.
    package let location: String

    /// A controller acting through `admin` on the store at `location`.
    package init(admin: any StoreAdministering, isReadOnly: Bool, location: String) {
        self.admin = admin
        self.isReadOnly = isReadOnly
        self.location = location
    }

    /// A controller acting on a cache file.
    package init(store: CacheStore) {
        self.init(admin: store.admin, isReadOnly: store.isReadOnly, location: store.path)
    }

    /// A controller acting on a Redis store, and deleting the database's other keys.
    package init(store: RedisStore) {
        self.init(admin: store.adminWithKeys, isReadOnly: store.isReadOnly, location: store.endpoint)
    }

    /// Measures what `target` would remove and captures it: the pending action runs exactly
    /// this target, whatever the caller's selection becomes while the question is open.
    /// Throws ``CacheError/readOnly(path:)`` on a read-only store.
    package func prepare(_ target: AdminTarget) throws -> PendingAction {
        guard !isReadOnly else { throw CacheError.readOnly(path: location) }
        return PendingAction(target: target, impact: try admin.preview(target))
    }

    /// Measures importing `entries` into `namespace`: how many are new, how many replace
    /// entries (which go to the trash) and the bytes written. Cache files only.
    package func prepareImport(_ entries: [ImportedEntry], into namespace: String) throws -> PendingAction {
        let impact = try importer().previewImport(entries, into: namespace)
        let record = ImportRecord(
            namespace: namespace, entries: impact.new + impact.replacing, replaced: impact.replacing, rowIDs: nil)
        var pending = PendingAction(
            target: .importEntries(record: record),
            impact: ActionImpact(entries: impact.replacing, bytes: impact.replacedBytes, recentHitShare: nil, sampleKeys: []))
        pending.importing = PendingImport(entries: entries, impact: impact)
        return pending
    }

    /// The file imports write through; throws why not on a read-only store or one that is
    /// not a CacheDeck cache file (Redis, another library's cache).
    package func importer() throws -> Admin {
        guard !isReadOnly else { throw CacheError.readOnly(path: location) }
        guard let file = admin as? Admin else {
            throw CacheError.unsupported(feature: "import", reason: "it writes into CacheDeck cache files only")
        }
        return file
    }

    /// Runs `pending` if `answer` confirms it (see ``PendingAction/accepts(_:)``); returns
    /// `nil` when it does not, and nothing is changed. `progress` is as in
    /// ``run(confirmed:progress:)``.
    package func run(_ pending: PendingAction, answer: String, progress: ((ActionProgress) -> Bool)? = nil) throws
        -> ActionResult?
    {
        guard pending.accepts(answer) else { return nil }
        return try run(confirmed: pending, progress: progress)
    }

    /// Runs `pending` without asking (for `--yes` and scripts); an action that removed nothing
    /// has nothing to undo, so its result carries no undo handle. `progress` hears how far a
    /// long action is after every batch; returning `false` stops it there (what it removed so
    /// far stays undoable).
    package func run(confirmed pending: PendingAction, progress: ((ActionProgress) -> Bool)? = nil) throws
        -> ActionResult
    {
        if let importing = pending.importing, let namespace = pending.target.namespace {
            let outcome = try importer().importEntries(importing.entries, into: namespace)
            return ActionResult(
                target: pending.target, outcome: outcome,
                undo: UndoHandle(auditID: outcome.auditID, summary: "\(pending.target)"))
        }
        let outcome = try admin.run(pending.target, origin: .current, progress: progress)
        return ActionResult(
            target: pending.target, outcome: outcome,
            undo: outcome.isUndoable && outcome.removed > 0
                ? UndoHandle(auditID: outcome.auditID, summary: "\(pending.target)") : nil)
    }

    /// Undoes an action; returns how many entries came back, of how many it removed.
    package func undo(_ handle: UndoHandle) throws -> UndoOutcome {
        let record = try admin.auditRecord(handle.auditID)
        guard case .importEntries(let imported)? = record?.target, let file = admin as? Admin else {
            let restored = try admin.restore(handle.auditID, origin: .current)
            if case .deleteKeys? = record?.target {
                return UndoOutcome(restored: restored, removed: record?.entries, isKeyDeletion: true)
            }
            return UndoOutcome(restored: restored, removed: record?.entries)
        }
        let undone = try file.undo(handle.auditID, origin: .current)
        return UndoOutcome(
            restored: undone.restored, removed: imported.replaced,
            imports: (deleted: undone.deletedImports, written: imported.entries))
    }

    /// The newest `limit` audit records, newest first.
    package func auditLog(limit: Int) throws -> [AuditRecord] {
        try admin.auditLog(limit: limit)
    }
}

/// An action measured and waiting for confirmation.
package struct PendingAction: Sendable, Hashable {
    /// What it will remove (captured when it was prepared).
    package let target: AdminTarget
    /// What it would remove when it was prepared.
    package let impact: ActionImpact
    /// Whether what it removes is kept for undo (a CacheDeck file's sweep keeps nothing; a
    /// foreign cache's trash keeps every action's rows).
    package var isUndoable: Bool
    /// The entries an import writes (`nil` for every other action).
    package var importing: PendingImport?

    /// An action measured elsewhere (``ActionController/prepare(_:)`` measures its own).
    package init(target: AdminTarget, impact: ActionImpact) {
        self.target = target
        self.impact = impact
        isUndoable = target.isUndoable
    }

    /// How the operator must confirm it.
    package var confirmation: Confirmation {
        switch target {
        case .clear(let namespace), .invalidate(.namespace(let namespace)): .typeName(namespace)
        case .clearAll, .invalidate(.all): .typeName("all")
        default: .yesOrNo
        }
    }

    /// What the action would remove, e.g. `Clear tiles: 2,500 entries, 1.2 MB, 34.2% of recent hits.`
    package var summary: String {
        if case .deleteKeys(let selector) = target {
            return "\(ActionText.deletion(selector, keys: impact.entries).capitalizedFirst): \(Formatting.bytes(impact.bytes))."
        }
        let share = impact.recentHitShare.map { "\(TimeText.percent($0)) of recent hits" } ?? "hits unknown"
        return "\(target.description.capitalizedFirst): \(Formatting.entries(impact.entries)), "
            + "\(Formatting.bytes(impact.bytes)), \(share)."
    }

    /// The question to show: the ``summary``, a warning on a full disk, and how to confirm.
    package var prompt: String {
        let warned = summary + (diskFullWarning.map { " " + $0 } ?? "")
        switch confirmation {
        case .yesOrNo: return warned + " Proceed? [y/N]"
        case .typeName(let name): return warned + " Type '\(name)' to confirm (anything else cancels):"
        }
    }

    /// On a full disk, that an undoable action will delete without an undo copy.
    package var diskFullWarning: String? {
        guard impact.isDiskFull, target.isUndoable else { return nil }
        if case .expiry = target { return nil }
        return "The disk is full: they will be deleted without an undo copy."
    }

    /// Whether `answer` confirms: `y` or `yes` (any case) for a yes/no question, the exact
    /// name when a name is asked. Anything else, including an empty answer, is No.
    package func accepts(_ answer: String) -> Bool {
        let trimmed = answer.trimmingCharacters(in: .whitespaces)
        switch confirmation {
        case .yesOrNo: return ["y", "yes"].contains(trimmed.lowercased())
        case .typeName(let name): return trimmed == name
        }
    }
}

/// An import waiting for confirmation: the entries it writes and what they would do.
package struct PendingImport: Sendable, Hashable {
    /// The entries read from the file.
    package let entries: [ImportedEntry]
    /// New, replacing and bytes, when it was prepared.
    package let impact: ImportImpact
}

/// How an action must be confirmed.
package enum Confirmation: Sendable, Hashable {
    /// A yes/no question whose default is No.
    case yesOrNo
    /// The operator must type this name (clearing a namespace or everything).
    case typeName(String)
}

/// What a confirmed action did, and how to undo it.
package struct ActionResult: Sendable, Hashable {
    /// What it removed.
    package let target: AdminTarget
    /// The counts and the audit row.
    package let outcome: ActionOutcome
    /// The handle for ``ActionController/undo(_:)``; `nil` when nothing was kept (sweeps).
    package let undo: UndoHandle?

    /// A result with these parts (``ActionController/run(confirmed:)`` reports real ones).
    package init(target: AdminTarget, outcome: ActionOutcome, undo: UndoHandle?) {
        self.target = target
        self.outcome = outcome
        self.undo = undo
    }
}

/// Undoes one action (within the trash retention).
package struct UndoHandle: Sendable, Hashable {
    /// The audit row of the action.
    package let auditID: Int64
    /// What the action was, for display.
    package let summary: String

    /// A handle on the action with audit id `auditID`.
    package init(auditID: Int64, summary: String) {
        self.auditID = auditID
        self.summary = summary
    }
}

extension String {
    package var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
