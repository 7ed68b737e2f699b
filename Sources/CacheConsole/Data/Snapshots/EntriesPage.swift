import CacheCore

/// Where a page of entries starts: an opaque position the data source hands out with a page
/// and takes back to continue after it.
package struct PageToken: Sendable, Hashable {
    /// The data source's encoding of the position.
    package let rawValue: String

    /// A token wrapping `rawValue`.
    package init(_ rawValue: String) {
        self.rawValue = rawValue
    }
}

/// A request for one page of a namespace's entries.
package struct EntriesRequest: Sendable, Hashable {
    /// The namespace.
    package var namespace: String
    /// The order.
    package var sort: EntrySort
    /// The filter text (see `EntryFilter(parsing:)`); empty for none.
    package var filter: String
    /// Where to start; `nil` for the first page.
    package var start: PageToken?
    /// The most rows to return.
    package var limit: Int

    /// A request with these values.
    package init(namespace: String, sort: EntrySort, filter: String, start: PageToken?, limit: Int) {
        self.namespace = namespace
        self.sort = sort
        self.filter = filter
        self.start = start
        self.limit = limit
    }
}

/// One entry as the Entries screen lists it.
package struct EntryInfo: Sendable, Hashable {
    /// The row id (stable while the entry exists).
    package var id: Int64
    /// The canonical key.
    package var key: String
    /// Key plus value bytes.
    package var size: Int
    /// When the current value was written.
    package var createdAt: Int64
    /// When it expires; `nil` never.
    package var expiresAt: Int64?
    /// The last write or recorded read.
    package var lastAccessAt: Int64
    /// Recorded reads.
    package var hits: Int
    /// Tags, sorted.
    package var tags: [String]

    /// An entry with these values.
    package init(
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
package struct EntriesPage: Sendable, Hashable {
    /// The rows, in order.
    package var rows: [EntryInfo]
    /// Where the next page starts; `nil` after the last.
    package var next: PageToken?
    /// Rows examined to build the page.
    package var examinedRows: Int
    /// Whether the order ranks only the most recently inserted rows (an order without an
    /// index on a large namespace).
    package var isRankingPartial: Bool

    /// A page with these values.
    package init(rows: [EntryInfo], next: PageToken?, examinedRows: Int, isRankingPartial: Bool) {
        self.rows = rows
        self.next = next
        self.examinedRows = examinedRows
        self.isRankingPartial = isRankingPartial
    }
}
