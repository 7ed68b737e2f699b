import TerminalUI
/// What an undo brought back, of what its action had removed.
package struct UndoOutcome: Sendable, Equatable {
    /// Entries brought back (or whose expiry times were put back).
    package let restored: Int
    /// What the action had removed, when its audit record is still kept.
    package let removed: Int?

    package init(restored: Int, removed: Int?) {
        self.restored = restored
        self.removed = removed
    }

    /// The line the console and the CLI print. When fewer came back than the action removed,
    /// it says so: an entry written again since keeps its new value (see ``Admin/restore(_:origin:)``).
    package func sentence(auditID: Int64) -> String {
        guard let removed, removed > restored else {
            return
                "Restored \(Formatting.count(restored)) \(restored == 1 ? "entry" : "entries") of action #\(auditID)."
        }
        let others = removed - restored
        return "Restored \(Formatting.count(restored)) of \(Formatting.entries(removed)) of action #\(auditID); "
            + "the other \(Formatting.count(others)) \(others == 1 ? "was" : "were") written again or removed since "
            + "and \(others == 1 ? "stays" : "stay") as \(others == 1 ? "it is" : "they are")."
    }
}
