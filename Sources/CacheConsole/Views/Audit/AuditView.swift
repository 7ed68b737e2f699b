/// The audit log.
public struct AuditView: Sendable {
    /// The rows as last read, newest first.
    public internal(set) var entries: [AuditEntry]?
    /// The selected row.
    public internal(set) var selection = 0
}
