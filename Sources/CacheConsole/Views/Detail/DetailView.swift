/// The Detail view of one entry.
public struct DetailView: Sendable {
    /// The entry's row id.
    public let entryID: Int64
    /// Its namespace.
    public let namespace: String
    /// Its key (for the breadcrumb while it loads).
    public let key: String
    /// The entry as last read.
    public internal(set) var snapshot: EntryDetailSnapshot?
    /// Whether the entry no longer exists.
    public internal(set) var isGone = false
    /// Whether the value shows as a hex dump.
    public internal(set) var hex = false
    /// The first value line shown.
    public internal(set) var scroll = 0
}
