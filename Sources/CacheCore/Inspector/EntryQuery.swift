/// A column entries can be sorted by.
public enum EntrySortField: String, Sendable, Hashable, Codable, CaseIterable {
    /// The canonical key, in byte order.
    case key
    /// Key plus value bytes.
    case size
    /// When the current value was written.
    case created
    /// When the entry expires; never-expiring entries sort after every expiring one. Ties
    /// are broken by the stale-until time, then the size (the expiry index's columns).
    case expires
    /// The last write or recorded read.
    case lastAccess
    /// Recorded reads.
    case hits
    /// The app-given sort value (``Cache/set(_:for:expiration:tags:sortValue:)``); entries
    /// without one come after those with one in either direction, in key order. Reaching
    /// them walks the namespace's keys, checking each row.
    case sortValue

    /// Whether the file format has an index in this order. Pages in such an order walk the index;
    /// the others rank a scan of the table that ``EntryQuery/scanLimit`` bounds.
    public var hasIndex: Bool {
        switch self {
        case .key, .expires, .sortValue: true
        case .size, .created, .lastAccess, .hits: false
        }
    }
}

/// A sort order. Remaining ties are broken by row id in the same direction, so the order is
/// total and pagination visits every row once.
public struct EntrySort: Sendable, Hashable, Codable {
    /// The column sorted by.
    public var field: EntrySortField
    /// Largest (latest, last) first.
    public var descending: Bool

    /// Sorts by `field`, ascending unless `descending`.
    public init(_ field: EntrySortField, descending: Bool = false) {
        self.field = field
        self.descending = descending
    }
}

/// A request for one page of a namespace's entries.
public struct EntryQuery: Sendable, Hashable {
    /// The rows a page request examines by default before it returns (possibly short).
    public static let defaultScanLimit = 200_000

    /// The namespace to list.
    public var namespace: String
    /// The order of the rows.
    public var sort: EntrySort
    /// The conditions every row must meet.
    public var filter: EntryFilter
    /// The most rows a page holds (1…10,000).
    public var limit: Int
    /// Where to continue: the ``EntryPage/next`` of the previous page, or `nil` for the first.
    public var after: EntryCursor?
    /// How many leading bytes of each value a row carries (0…4096).
    public var previewBytes: Int
    /// The work one request may do, in rows read in order. A filtered walk stops there with a
    /// short page that ``EntryPage/next`` continues; a row whose test reads more than the
    /// walked index (size, hits, age, tags, or key text outside key order) counts as
    /// 8 rows (a random read rather than an index step). A sort without an index ranks the
    /// whole namespace whatever the limit, so its order is exact. `nil` does whatever work the
    /// page needs.
    public var scanLimit: Int?

    /// Creates a query; the defaults list the first 50 entries by key.
    public init(
        namespace: String, sort: EntrySort = EntrySort(.key), filter: EntryFilter = EntryFilter(), limit: Int = 50,
        after: EntryCursor? = nil, previewBytes: Int = 64, scanLimit: Int? = EntryQuery.defaultScanLimit
    ) {
        self.namespace = namespace
        self.sort = sort
        self.filter = filter
        self.limit = limit
        self.after = after
        self.previewBytes = previewBytes
        self.scanLimit = scanLimit
    }
}
