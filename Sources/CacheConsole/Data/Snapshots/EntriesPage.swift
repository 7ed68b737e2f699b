import CacheCore

/// Where a page of entries starts: an opaque position the data source hands out with a page
/// and takes back to continue after it.
public struct PageToken: Sendable, Hashable {
    /// The data source's encoding of the position.
    public let rawValue: String

    /// A token wrapping `rawValue`.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }
}

/// A request for one page of a namespace's entries.
public struct EntriesRequest: Sendable, Hashable {
    /// The namespace.
    public var namespace: String
    /// The order.
    public var sort: EntrySort
    /// The filter text (see `EntryFilter(parsing:)`); empty for none.
    public var filter: String
    /// Where to start; `nil` for the first page.
    public var start: PageToken?
    /// The most rows to return.
    public var limit: Int

    /// A request with these values.
    public init(namespace: String, sort: EntrySort, filter: String, start: PageToken?, limit: Int) {
        self.namespace = namespace
        self.sort = sort
        self.filter = filter
        self.start = start
        self.limit = limit
    }
}

/// One entry as the Entries screen lists it.
public struct EntryInfo: Sendable, Hashable {
    /// The row id (stable while the entry exists).
    public var id: Int64
    /// The canonical key.
    public var key: String
    /// Key plus value bytes.
    public var size: Int
    /// When the current value was written.
    public var createdAt: Int64
    /// When it expires; `nil` never.
    public var expiresAt: Int64?
    /// The last write or recorded read.
    public var lastAccessAt: Int64
    /// Recorded reads.
    public var hits: Int
    /// Tags, sorted.
    public var tags: [String]

    /// An entry with these values.
    public init(
        id: Int64, key: String, size: Int, createdAt: Int64, expiresAt: Int64?, lastAccessAt: Int64, hits: Int,
        tags: [String]
    ) {
        self.id = id
        self.key = key
        self.size = size
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.lastAccessAt = lastAccessAt
        self.hits = hits
        self.tags = tags
    }
}

/// One page of entries.
public struct EntriesPage: Sendable, Hashable {
    /// The rows, in order.
    public var rows: [EntryInfo]
    /// Where the next page starts; `nil` after the last.
    public var next: PageToken?
    /// Rows examined to build the page.
    public var examinedRows: Int
    /// Whether the order ranks only the most recently inserted rows (an order without an
    /// index on a large namespace).
    public var isRankingPartial: Bool

    /// A page with these values.
    public init(rows: [EntryInfo], next: PageToken?, examinedRows: Int, isRankingPartial: Bool) {
        self.rows = rows
        self.next = next
        self.examinedRows = examinedRows
        self.isRankingPartial = isRankingPartial
    }
}
