/// The expiry timeline of a namespace or of the store.
public struct TimelineView: Sendable {
    /// The namespace, or `nil` for the store.
    public let namespace: String?
    /// The timeline as last read.
    public internal(set) var snapshot: TimelineSnapshot?
}
