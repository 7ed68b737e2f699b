import Foundation

/// Pages a namespace in an order an index delivers (key, expiry, last access).
///
/// Each batch walks the index from the cursor with `LIMIT`; the filter's conditions are
/// computed per row rather than placed in `WHERE`, so a batch examines a bounded number of
/// rows however rare the matches are, and the scan limit can end a page early. Terms that
/// bound the walked column (a key prefix in key order, a time to live in expiry order) do go
/// in `WHERE`, as a range of the index.
struct EntryWalk {
    let plan: SortPlan
    let namespaceID: Int64
    let namespaceName: String
    let filter: EntryFilter
    let regexes: [NSRegularExpression]
    let now: Int64
    let previewBytes: Int

    /// Rows a filtered batch examines at least (fewer round trips when matches are rare).
    private static let filteredBatch = 256

    private struct Candidate {
        let row: EntryRow
        let matches: Bool
        let values: [CursorValue]
    }

    func page(limit: Int, after start: EntryCursor?, scanLimit: Int?, on connection: SQLiteConnection) throws
        -> EntryPage
    {
        var rows: [EntryRow] = []
        var position = start
        var segment = start?.segment ?? 0
        var examined = 0
        let budget = scanLimit ?? .max
        let isFiltered = !filter.isEmpty
        func finish(next: EntryCursor?, reachedScanLimit: Bool = false) -> EntryPage {
            EntryPage(
                namespace: namespaceName, sort: plan.sort, filter: filter.description, now: now, rows: rows, next: next,
                examinedRows: examined, reachedScanLimit: reachedScanLimit, rankedFromRowID: nil)
        }
        while segment < plan.segments.count {
            let needed = limit - rows.count + 1
            let count = min(isFiltered ? max(needed, Self.filteredBatch) : needed, max(budget - examined, 1))
            let resume = position?.segment == segment ? position : nil
            let batch = try fetch(segment: segment, after: resume, count: count, on: connection)
            for candidate in batch {
                if rows.count == limit { return finish(next: position) }
                examined += 1
                position = EntryCursor(
                    namespace: namespaceName, sort: plan.sort, segment: segment, values: candidate.values,
                    id: candidate.row.id, rankedFromRowID: nil)
                if candidate.matches && regexes.allMatch(candidate.row.key) { rows.append(candidate.row) }
            }
            if batch.count < count {
                segment += 1
            } else if examined >= budget {
                return finish(next: position, reachedScanLimit: rows.count < limit)
            }
        }
        return finish(next: nil)
    }

    private func fetch(segment: Int, after resume: EntryCursor?, count: Int, on connection: SQLiteConnection) throws
        -> [Candidate]
    {
        var sql = SQLBuilder()
        var conditions = ["namespace_id = \(sql.parameter(namespaceID))"]
        if let condition = plan.segments[segment].condition { conditions.append(condition) }
        var tests: [String] = []
        for term in filter.terms {
            guard let condition = term.sqlCondition(now: now, &sql) else { continue }
            if term.narrowsWalk(by: plan.sort.field) {
                conditions.append(condition)
            } else {
                tests.append(condition)
            }
        }
        if let resume { conditions.append(plan.after(values: resume.values, id: resume.id, segment: segment, &sql)) }
        let matches = tests.isEmpty ? "1" : tests.joined(separator: " AND ")
        let preview = EntryRowSQL.preview(sql.parameter(previewBytes))
        let limit = sql.parameter(count)
        let query = """
            SELECT \(EntryRowSQL.columns), CASE WHEN \(matches) THEN \(preview) END, \(matches), \(plan.selected(segment))
            FROM entries WHERE \(conditions.joined(separator: " AND "))
            ORDER BY \(plan.orderBy(segment)) LIMIT \(limit)
            """
        let names = [namespaceID: namespaceName]
        return try connection.rows(query, sql.values) { row in
            Candidate(
                row: EntryRowSQL.read(row, namespaces: names), matches: row.int64(EntryRowSQL.previewColumn + 1) != 0,
                values: plan.values(of: row, segment: segment, from: EntryRowSQL.previewColumn + 2))
        }
    }
}
