import Foundation

/// Pages a namespace in an order an index delivers (key, expiry, last access).
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
    let regexes: [NSRegularExpression]
    let now: Int64
    let previewBytes: Int

    /// Rows a filtered batch examines at least (fewer round trips when matches are rare).
    private static let filteredBatch = 256

    private struct Candidate {
        let id: Int64
        let key: String
        let matches: Bool
        let values: [CursorValue]
    }

    func page(limit: Int, after start: EntryCursor?, scanLimit: Int?, on connection: SQLiteConnection) throws
        -> EntryPage
    {
        let names = [namespaceID: namespaceName]
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
                    id: candidate.id, rankedFromRowID: nil)
                guard candidate.matches, regexes.allMatch(candidate.key),
                    let row = try connection.entryRow(id: candidate.id, previewBytes: previewBytes, namespaces: names)
                else { continue }
                rows.append(row)
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
        let key = regexes.isEmpty ? "NULL" : "CAST(key AS BLOB)"
        let query = """
            SELECT id, \(key), \(matches), \(plan.selected(segment))
            FROM entries WHERE \(conditions.joined(separator: " AND "))
            ORDER BY \(plan.orderBy(segment)) LIMIT \(sql.parameter(count))
            """
        return try connection.rows(query, sql.values) { row in
            Candidate(
                id: row.int64(0), key: String(decoding: row.blob(1), as: UTF8.self), matches: row.int64(2) != 0,
                values: plan.values(of: row, segment: segment, from: 3))
        }
    }
}
