/// A ranking of entries worth an operator's attention.
public enum TopListKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Largest key plus value first.
    case largest
    /// Most recorded reads first (entries read at least once).
    case hottest
    /// Entries never read, oldest written first: what the cache stores for nobody.
    case neverRead
    /// Oldest written first.
    case oldest

    /// The order and filter of the ranking.
    var query: (sort: EntrySort, filter: EntryFilter) {
        switch self {
        case .largest: (EntrySort(.size, descending: true), EntryFilter())
        case .hottest: (EntrySort(.hits, descending: true), EntryFilter([.hits(.greater, 0)]))
        case .neverRead: (EntrySort(.created), EntryFilter([.hits(.equal, 0)]))
        case .oldest: (EntrySort(.created), EntryFilter())
        }
    }
}

/// The first entries of a ``TopListKind`` ranking.
public struct TopList: Sendable, Hashable, Codable {
    /// The ranking.
    public var kind: TopListKind
    /// The namespace ranked, or `nil` for the whole store.
    public var namespace: String?
    /// The time of the snapshot (milliseconds since the epoch).
    public var now: Int64
    /// The entries, best ranked first.
    public var rows: [EntryRow]
    /// Rows ranked to find them.
    public var examinedRows: Int
    /// For a store-wide ranking of a file larger than the scan limit: only rows with this id
    /// or greater (the most recently inserted) were ranked. `nil` when every row was.
    public var rankedFromRowID: Int64?
}
