import Foundation

/// Pages a namespace in an order an index delivers (key, expiry, last access), or any order
/// within a small ``TagRange``.
///
/// Each batch walks the index from the cursor with `LIMIT`; the filter's conditions are
/// computed per row rather than placed in `WHERE`, so a batch examines a bounded number of
/// rows however rare the matches are, and the scan limit can end a page early. Terms that
/// bound the walked column (a key prefix in key order, a time to live in expiry order) do go
/// in `WHERE`, as a range of the index. A batch reads only ids, sort values and the match
/// flag (from the index alone when the filter allows); matching rows are then read by id.
struct EntryWalk {
    let plan: SortPlan
    let namespaceID: Int64
    let namespaceName: String
    let filter: EntryFilter
    let regexes: KeyMatcher
    let now: Int64
    let previewBytes: Int
    /// When set, the walk reads only the entries of this range, ordered by SQLite (any order,
    /// indexed or not): a batch then costs what the range holds (see ``TagRange``).
    var candidates: TagRange? = nil

    /// Rows a filtered batch examines at least (fewer round trips when matches are rare).
    private static let filteredBatch = 256

    /// What one batch of the walk found.
    private struct Batch {
        /// Rows the statement returned.
        var rows = 0
        /// Rows looked at (all but a row past a full page).
        var examined = 0
        /// Ids of the rows that passed the filter, in order.
        var matches: [Int64] = []
        /// The last row looked at: its sort values and id.
        var last: (values: [CursorValue], id: Int64)?
        /// Whether the batch stopped at a row past a full page.
        var isCut = false
    }

    func page(limit: Int, after start: EntryCursor?, scanLimit: Int?, on connection: SQLiteConnection) throws
        -> EntryPage
    {
        let names = [namespaceID: namespaceName]
        // A filter that reads the table row costs a random read per row, not an index step.
        let rowCost = filter.terms.contains { $0.readsRow(walking: plan.sort.field) } ? EntryRanking.lookupCost : 1
        let budget = scanLimit ?? .max
        var rows: [EntryRow] = []
        var position = start
        var segment = start?.segment ?? 0
        var examined = 0
        func finish(next: EntryCursor?, reachedScanLimit: Bool = false) -> EntryPage {
            EntryPage(
                namespace: namespaceName, sort: plan.sort, filter: filter.description, now: now, rows: rows, next: next,
                examinedRows: examined, reachedScanLimit: reachedScanLimit)
        }
        while segment < plan.segments.count {
            let needed = limit - rows.count + 1
            let affordable = max((budget - examined * rowCost) / rowCost, 1)
            // Within candidates, every batch sorts the whole range: one batch takes it all.
            let wanted =
                candidates != nil
                ? needed + TagRange.readWholeLimit : filter.isEmpty ? needed : max(needed, Self.filteredBatch)
            let count = min(wanted, affordable)
            let resume = position?.segment == segment ? position : nil
            let batch = try walk(
                segment: segment, after: resume, count: count, room: limit - rows.count, on: connection)
            examined += batch.examined
            if let last = batch.last {
                position = EntryCursor(
                    namespace: namespaceName, sort: plan.sort, segment: segment, values: last.values, id: last.id)
            }
            for id in batch.matches {
                if let row = try connection.entryRow(id: id, previewBytes: previewBytes, namespaces: names) {
                    rows.append(row)
                }
            }
            if batch.isCut { return finish(next: position) }
            if batch.rows < count {
                segment += 1
            } else if examined * rowCost >= budget {
                return finish(next: position, reachedScanLimit: rows.count < limit)
            }
        }
        return finish(next: nil)
    }

    /// Walks up to `count` rows of `segment` after `resume`, keeping up to `room` matches.
    private func walk(
        segment: Int, after resume: EntryCursor?, count: Int, room: Int, on connection: SQLiteConnection
    ) throws -> Batch {
        let (query, parameters) = walkQuery(segment: segment, after: resume, count: count)
        var batch = Batch()
        var values = [CursorValue](repeating: .null, count: plan.segments[segment].columns.count)
        var lastID: Int64?
        try connection.withDynamicStatement(query) { statement in
            statement.bind(parameters)
            while try statement.step() {
                batch.rows += 1
                if batch.matches.count == room {
                    batch.isCut = true
                    return
                }
                batch.examined += 1
                let id = statement.int64(0)
                lastID = id
                plan.readValues(of: statement, segment: segment, from: 3, into: &values)
                if try statement.int64(2) != 0
                    && (regexes.isEmpty || regexes.allMatch(String(decoding: statement.blob(1), as: UTF8.self)))
                {
                    batch.matches.append(id)
                }
            }
        }
        batch.last = lastID.map { (values, $0) }
        return batch
    }
}
