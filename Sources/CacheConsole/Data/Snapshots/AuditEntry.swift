import TerminalUI
import CacheCore

/// One row of the audit log, as the Audit screen lists it.
package struct AuditEntry: Sendable, Hashable {
    /// The audit id (what undo takes).
    package var id: Int64
    /// When it ran.
    package var at: Int64
    /// `user@host`.
    package var who: String
    /// What it did: `clear tiles`, `restore #12`.
    package var action: String
    /// Entries removed (or brought back).
    package var entries: Int
    /// Their bytes.
    package var bytes: Int
    /// Whether it was undone.
    package var isUndone: Bool
    /// Whether it can be undone now.
    package var canUndo: Bool
    /// Who ran it: user, host, pid and program (`nil` when not known).
    package var origin: ActionOrigin?
    /// Some of the keys it removed that are still in the trash, as `namespace/key`.
    package var sampleKeys: [String]

    /// An entry with these values.
    package init(
        id: Int64, at: Int64, who: String, action: String, entries: Int, bytes: Int, isUndone: Bool, canUndo: Bool,
        origin: ActionOrigin? = nil, sampleKeys: [String] = []
    ) {
        self.origin = origin
        self.sampleKeys = sampleKeys
        self.id = id
        self.at = at
        self.who = who
        self.action = action
        self.entries = entries
        self.bytes = bytes
        self.isUndone = isUndone
        self.canUndo = canUndo
    }
}

extension AuditEntry {
    /// The row of `record`: the action's target in full (screens and tables truncate it).
    package init(_ record: AuditRecord) {
        self.init(
            id: record.id, at: record.at, who: "\(record.origin.user)@\(record.origin.host)",
            action: record.target.map { target in
                if case .deleteKeys(let selector) = target { ActionText.deletion(selector, keys: record.entries) } else { "\(target)" }
            } ?? "restore #\(record.restoredAuditID ?? 0)",
            entries: record.entries, bytes: record.bytes, isUndone: record.undoneAt != nil, canUndo: record.canUndo,
            origin: record.origin, sampleKeys: record.sampleKeys)
    }
}
