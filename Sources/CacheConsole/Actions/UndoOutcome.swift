import TerminalUI
/// What an undo brought back, of what its action had removed.
package struct UndoOutcome: Sendable, Equatable {
    /// Entries brought back (or whose expiry times were put back).
    package let restored: Int
    /// What the action had removed, when its audit record is still kept.
    package let removed: Int?

    /// For an import: the imported entries deleted, of those it wrote (the others were
    /// written since and stay).
    package let imports: (deleted: Int, written: Int)?
    /// Whether the action deleted Redis keys (its words: keys, deletion).
    package let isKeyDeletion: Bool

    package init(
        restored: Int, removed: Int?, imports: (deleted: Int, written: Int)? = nil, isKeyDeletion: Bool = false
    ) {
        self.restored = restored
        self.removed = removed
        self.imports = imports
        self.isKeyDeletion = isKeyDeletion
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.restored == rhs.restored && lhs.removed == rhs.removed && lhs.imports?.deleted == rhs.imports?.deleted
            && lhs.imports?.written == rhs.imports?.written && lhs.isKeyDeletion == rhs.isKeyDeletion
    }

    /// The line the console and the CLI print. When fewer came back than the action removed,
    /// it says so: an entry written again since keeps its new value (see ``Admin/restore(_:origin:)``).
    package func sentence(auditID: Int64) -> String {
        if let imports {
            let kept = imports.written - imports.deleted
            return "Undid import #\(auditID): removed \(Formatting.count(imports.deleted)) imported "
                + "\(imports.deleted == 1 ? "entry" : "entries")"
                + (kept > 0 ? " (\(Formatting.count(kept)) written again since \(kept == 1 ? "stays" : "stay"))" : "")
                + ", restored \(Formatting.count(restored)) of \(Formatting.count(removed ?? 0)) replaced."
        }
        let (one, many, action) = isKeyDeletion ? ("key", "keys", "deletion") : ("entry", "entries", "action")
        guard let removed, removed > restored else {
            return "Restored \(Formatting.count(restored)) \(restored == 1 ? one : many) of \(action) #\(auditID)."
        }
        let others = removed - restored
        return "Restored \(Formatting.count(restored)) of \(Formatting.count(removed)) \(removed == 1 ? one : many) of "
            + "\(action) #\(auditID); "
            + "the other \(Formatting.count(others)) \(others == 1 ? "was" : "were") written again or removed since "
            + "and \(others == 1 ? "stays" : "stay") as \(others == 1 ? "it is" : "they are")."
    }
}
