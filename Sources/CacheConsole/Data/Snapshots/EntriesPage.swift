import TerminalUI
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
    /// Whether to read the rows *before* `start`, nearest first: the page's rows still come
    /// in the order's direction, and its `next` is where they start (`nil`: at the first row).
    package var backward: Bool

    /// A request with these values.
    package init(
        namespace: String, sort: EntrySort, filter: String, start: PageToken?, limit: Int, backward: Bool = false
    ) {
        self.namespace = namespace
        self.sort = sort
        self.filter = filter
        self.start = start
        self.limit = limit
        self.backward = backward
    }
}

/// Where an entry is now in an order and filter.
package struct EntriesLocation: Sendable, Hashable {
    /// Matching rows before it.
    package var position: Int
    /// Where a page starting with it starts.
    package var start: PageToken

    /// A location with these values.
    package init(position: Int, start: PageToken) {
        self.position = position
        self.start = start
    }
}

/// How the console finds one entry again: a cache file's row id (stable while the entry
/// exists), or a Redis store's namespace and key (Redis has no row ids).
package enum EntryReference: Sendable, Hashable, ExpressibleByIntegerLiteral {
    /// A row of a cache file.
    case row(Int64)
    /// The entry under `key` (the printable canonical key) in `namespace`.
    case key(namespace: String, key: String)

    /// A row id.
    package init(integerLiteral value: Int64) { self = .row(value) }
}

/// One entry as the Entries screen lists it.
package struct EntryInfo: Sendable, Hashable {
    /// How to find the entry again.
    package var id: EntryReference
    /// The canonical key.
    package var key: String
    /// Key plus value bytes.
    package var size: Int
    /// When the current value was written; `nil` where the format does not record it.
    package var createdAt: Int64?
    /// When it expires; `nil` never.
    package var expiresAt: Int64?
    /// The last write or recorded read; `nil` where the format does not record it.
    package var lastAccessAt: Int64?
    /// Recorded reads; `nil` where reads are not recorded (Redis).
    package var hits: Int?
    /// Tags, sorted.
    package var tags: [String]
    /// How the key reads where that is not the key itself (a pickled key's Python `repr`).
    package var label: String?

    /// An entry with these values.
    package init(
        id: EntryReference, key: String, size: Int, createdAt: Int64?, expiresAt: Int64?, lastAccessAt: Int64?,
        hits: Int?,
        tags: [String], label: String? = nil
    ) {
        self.id = id
        self.key = key
        self.size = size
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.lastAccessAt = lastAccessAt
        self.hits = hits
        self.tags = tags
        self.label = label
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
    /// How many entries the filter matches in all, exactly: counted with a filtered first
    /// page, `nil` for other pages.
    package var matching: Int?
    /// Whether the rows come in the server's scan order (Redis) rather than the order asked for.
    package var isScanOrder: Bool

    /// A page with these values.
    package init(
        rows: [EntryInfo], next: PageToken?, examinedRows: Int, matching: Int? = nil, isScanOrder: Bool = false
    ) {
        self.isScanOrder = isScanOrder
        self.rows = rows
        self.next = next
        self.examinedRows = examinedRows
        self.matching = matching
    }
}
