/// An ``EntrySort`` as SQL: the segments it lists in turn, each ordered by columns an index
/// (or a ranking scan) delivers, and the keyset condition that resumes after a row.
///
/// Every order ends with the row id, so it is total. The expiry order has two segments:
/// expiring entries by `(expires_at, stale_until, size, id)` — the columns of
/// `entries_by_expiry` — and never-expiring ones by `(stale_until, size, id)`, so "never" sorts after every expiry
/// ascending and before it descending while each segment stays an index walk.
struct SortPlan {
    struct Column {
        let name: String
        let isText: Bool
        let isNullable: Bool

        static func integer(_ name: String, nullable: Bool = false) -> Column {
            Column(name: name, isText: false, isNullable: nullable)
        }

        /// How a select list reads it: text as raw bytes.
        var selected: String { isText ? "CAST(\(name) AS BLOB)" : name }
    }

    struct Segment {
        /// What restricts the rows to this segment, if anything.
        let condition: String?
        let columns: [Column]
    }

    let sort: EntrySort
    let segments: [Segment]

    init(_ sort: EntrySort) {
        self.sort = sort
        switch sort.field {
        case .key: segments = [Segment(condition: nil, columns: [Column(name: "key", isText: true, isNullable: false)])]
        case .size: segments = [Segment(condition: nil, columns: [.integer("size")])]
        case .created: segments = [Segment(condition: nil, columns: [.integer("created_at")])]
        case .lastAccess: segments = [Segment(condition: nil, columns: [.integer("accessed_at")])]
        case .hits: segments = [Segment(condition: nil, columns: [.integer("hits")])]
        case .expires:
            let expiring = Segment(
                condition: "expires_at IS NOT NULL",
                columns: [.integer("expires_at"), .integer("stale_until", nullable: true), .integer("size")])
            let never = Segment(
                condition: "expires_at IS NULL", columns: [.integer("stale_until", nullable: true), .integer("size")])
            segments = sort.descending ? [never, expiring] : [expiring, never]
        case .sortValue:
            segments = [
                Segment(condition: "sort_value IS NOT NULL", columns: [.integer("sort_value")]),
                Segment(condition: "sort_value IS NULL", columns: [Column(name: "key", isText: true, isNullable: false)]),
            ]
        }
    }

    private var direction: String { sort.descending ? " DESC" : "" }

    /// For an order no index delivers, the columns of the index that holds its sort column
    /// (besides `namespace_id` and the row id, which every index holds): a ranking that reads
    /// nothing else scans that index instead of the table and its values. The expiry index
    /// holds `size` and (from format 8) `created_at`; format 8 has no access index, so last
    /// access and hits rank a scan of the namespace's rows.
    var rankingIndexColumns: Set<String>? {
        switch sort.field {
        case .size, .created: ["expires_at", "stale_until", "size", "created_at"]
        case .key, .expires, .lastAccess, .hits, .sortValue: nil
        }
    }

    /// `ORDER BY` terms of a segment (SQLite puts NULLs first ascending and last descending,
    /// as the indexes hold them).
    func orderBy(_ segment: Int) -> String {
        (segments[segment].columns.map { $0.name + direction } + ["id" + direction]).joined(separator: ", ")
    }

    /// The segment's sort columns as a select list, read back by ``readValues(of:segment:from:into:)``.
    func selected(_ segment: Int) -> String {
        segments[segment].columns.map(\.selected).joined(separator: ", ")
    }

    /// Reads the sort values of the current row, whose sort columns start at `column`, into
    /// `values` (in place: a walk reads them for every row it examines).
    func readValues(of row: SQLiteStatement, segment: Int, from column: Int32, into values: inout [CursorValue]) {
        for (offset, sortColumn) in segments[segment].columns.enumerated() {
            let index = column + Int32(offset)
            values[offset] =
                row.isNull(index) ? .null : sortColumn.isText ? .text(row.blob(index)) : .integer(row.int64(index))
        }
    }

    /// The condition "after `values`/`id` in this segment's order", with NULLs ordered as
    /// SQLite orders them, plus a range on the leading column an index can seek to (a walk
    /// then reads only the rows that tie with the cursor before reaching new ones).
    func after(values: [CursorValue], id: Int64, segment: Int, _ sql: inout SQLBuilder) -> String {
        let columns = segments[segment].columns
        let placeholders = values.map { value in value.sqlValue.map { sql.parameter($0) } }
        let idPlaceholder = sql.parameter(id)
        var condition = "id \(sort.descending ? "<" : ">") \(idPlaceholder)"
        for (column, placeholder) in zip(columns, placeholders).reversed() {
            let equal = placeholder.map { "\(column.name) = \($0)" } ?? "\(column.name) IS NULL"
            let beyond: String? =
                switch (placeholder, sort.descending) {
                case (nil, false): "\(column.name) IS NOT NULL"
                case (nil, true): nil
                case (let value?, false): "\(column.name) > \(value)"
                case (let value?, true):
                    column.isNullable
                        ? "(\(column.name) < \(value) OR \(column.name) IS NULL)" : "\(column.name) < \(value)"
                }
            condition = beyond.map { "(\($0) OR (\(equal) AND \(condition)))" } ?? "(\(equal) AND \(condition))"
        }
        if let leading = columns.first, let value = placeholders.first ?? nil, !leading.isNullable {
            condition = "\(leading.name) \(sort.descending ? "<=" : ">=") \(value) AND \(condition)"
        }
        return condition
    }
}
