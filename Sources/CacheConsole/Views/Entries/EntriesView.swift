import CacheCore

/// The Entries view of one namespace: order, filter, the paged window, marks and the values
/// that changed lately.
public struct EntriesView: Sendable {
    /// The namespace listed.
    public let namespace: String
    /// The column the rows are sorted by, and whether reversed.
    public internal(set) var sort: EntrySort = EntrySort(.key)
    /// The filter text in force (empty: none).
    public internal(set) var filter = ""
    /// The rows held.
    public internal(set) var window = EntriesWindow(anchor: .top)
    /// Bumped whenever the order, filter or anchor changes, so older pages are ignored.
    var generation = 0
    /// Marked entries: id → key.
    public internal(set) var marks: [Int64: String] = [:]
    /// Whether every entry the filter matches is marked.
    public internal(set) var marksAllMatching = false
    /// Where the last mark was set (display position), for a range mark.
    var markAnchor: Int?
    /// Row id → when its values last changed (ms) and which, to highlight them for a moment.
    var changedAt: [Int64: (at: Int64, fields: ChangedFields)] = [:]
    /// Row id → when its values last changed (ms), highlighted or not.
    var lastChange: [Int64: Int64] = [:]
    /// Whether the order ranks only the most recently inserted rows.
    public internal(set) var isRankingPartial = false

    /// A view of `namespace` sorted by key.
    init(namespace: String) {
        self.namespace = namespace
    }

    /// What a page request for page `page` asks for.
    func request(page: Int, limit: Int = EntriesWindow.pageSize) -> EntriesRequest {
        var order = sort
        if window.anchor == .bottom { order.descending.toggle() }
        return EntriesRequest(
            namespace: namespace, sort: order, filter: filter, start: window.pages[page].start, limit: limit)
    }
}

/// The columns of the Entries table, in order, and the sort each stands for. Age and last
/// access show times since, so their ascending order is the time column's descending one.
enum EntryColumn: CaseIterable {
    case key, size, age, expires, hits, lastAccess, tags

    /// The sort this column's ascending order is; `nil` for tags.
    var ascendingSort: EntrySort? {
        switch self {
        case .key: EntrySort(.key)
        case .size: EntrySort(.size)
        case .age: EntrySort(.created, descending: true)
        case .expires: EntrySort(.expires)
        case .hits: EntrySort(.hits)
        case .lastAccess: EntrySort(.lastAccess, descending: true)
        case .tags: nil
        }
    }

    /// The column a sort is shown on, and whether it shows as descending.
    static func shown(for sort: EntrySort) -> (column: EntryColumn, descending: Bool) {
        for column in allCases {
            guard let ascending = column.ascendingSort, ascending.field == sort.field else { continue }
            return (column, ascending.descending != sort.descending)
        }
        return (.key, sort.descending)
    }

    /// The next sortable column after this one.
    var nextSortable: EntryColumn {
        let sortable = Self.allCases.filter { $0.ascendingSort != nil }
        let index = sortable.firstIndex(of: self) ?? 0
        return sortable[(index + 1) % sortable.count]
    }
}
