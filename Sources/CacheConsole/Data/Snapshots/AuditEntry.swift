/// One row of the audit log, as the Audit screen lists it.
public struct AuditEntry: Sendable, Hashable {
    /// The audit id (what undo takes).
    public var id: Int64
    /// When it ran.
    public var at: Int64
    /// `user@host`.
    public var who: String
    /// What it did: `clear tiles`, `restore #12`.
    public var action: String
    /// Entries removed (or brought back).
    public var entries: Int
    /// Their bytes.
    public var bytes: Int
    /// Whether it was undone.
    public var isUndone: Bool
    /// Whether it can be undone now.
    public var canUndo: Bool

    /// An entry with these values.
    public init(
        id: Int64, at: Int64, who: String, action: String, entries: Int, bytes: Int, isUndone: Bool, canUndo: Bool
    ) {
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
