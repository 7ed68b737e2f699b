import Foundation

/// Pages in an order no index delivers (size, creation, hits): each batch ranks rows with
/// SQLite's top-N sorter, then reads the chosen rows by id (so values are read only for rows
/// that are shown).
///
/// What is scanned: a namespace's entries in the index that holds the sort column, when the
/// filter reads nothing else (no row is read); otherwise whichever is cheaper, its rows
/// through a `namespace_id` index (a row lookup each, costed at ``lookupCost`` sequential
/// rows), or the table in row id order. A namespace is always ranked whole, so its order is
/// exact. A ranking of the whole store (a top list, one page) that would scan more than the
/// scan limit ranks a window of the most recently inserted rows instead (ids from
/// `max(id) - scanLimit + 1`) and says so (``TopList/rankedFromRowID``).
struct EntryRanking {
    let plan: SortPlan
    /// The namespace ranked, or `nil` for the whole store.
    let namespaceID: Int64?
    let namespaceEntries: Int
    let namespaceName: String
    let filter: EntryFilter
    let regexes: KeyMatcher
    let now: Int64
    let previewBytes: Int

    /// A row found through an index costs about this many rows of a sequential scan.
    static let lookupCost = 8
    /// Candidates a batch ranks at least when a regular expression filters them in Swift.
    private static let filteredBatch = 256

    /// What each batch scans.
    struct Scope {
        let throughNamespaceIndex: Bool
        /// The window of a store-wide ranking: only rows with this id or greater.
        let fromRowID: Int64?
        let rows: Int
    }

    /// A page of the namespace's ranking after `start`, examining about `scanLimit` rows.
    func page(limit: Int, after start: EntryCursor?, scanLimit: Int?, on connection: SQLiteConnection) throws
        -> EntryPage
    {
        let ranked = try rows(limit: limit, after: start, scanLimit: scanLimit, on: connection)
        return EntryPage(
            namespace: namespaceName, sort: plan.sort, filter: filter.description, now: now, rows: ranked.rows,
            next: ranked.next, examinedRows: ranked.examined, reachedScanLimit: ranked.reachedScanLimit)
    }

    /// The first `limit` rows of the ranking, the window a store-wide one ranked, and the rows
    /// it examined.
    func top(limit: Int, scanLimit: Int?, on connection: SQLiteConnection) throws -> (
        rows: [EntryRow], rankedFromRowID: Int64?, examined: Int
    ) {
        let ranked = try rows(limit: limit, after: nil, scanLimit: scanLimit, on: connection)
        return (ranked.rows, ranked.scope.fromRowID, ranked.examined)
    }

    private func rows(limit: Int, after start: EntryCursor?, scanLimit: Int?, on connection: SQLiteConnection)
        throws -> (rows: [EntryRow], next: EntryCursor?, examined: Int, reachedScanLimit: Bool, scope: Scope)
    {
        let scope = try self.scope(scanLimit: scanLimit, on: connection)
        let names = try connection.namespaceNames()
        var rows: [EntryRow] = []
        var position = start
        var examined = 0
        let budget = scanLimit ?? .max
        while true {
            let needed = limit - rows.count + 1
            let count = regexes.isEmpty ? needed : max(needed, Self.filteredBatch)
            let batch = try rank(scope, after: position, count: count, on: connection)
            examined += scope.rows
            for (id, key, values) in batch {
                if rows.count == limit { return (rows, position, examined, false, scope) }
                position = EntryCursor(
                    namespace: namespaceName, sort: plan.sort, segment: 0, values: values, id: id)
                guard try regexes.allMatch(key),
                    let row = try connection.entryRow(id: id, previewBytes: previewBytes, namespaces: names)
                else { continue }
                rows.append(row)
            }
            if batch.count < count { return (rows, nil, examined, false, scope) }
            if examined >= budget { return (rows, position, examined, rows.count < limit, scope) }
        }
    }

    /// What the ranking scans: a namespace whole, the store within `scanLimit` rows.
    func scope(scanLimit: Int?, on connection: SQLiteConnection) throws -> Scope {
        let range = try connection.entryIDRange()
        let last = range?.upperBound
        let span = range.map { Int($0.upperBound.subtractingClamped($0.lowerBound).addingClamped(1)) } ?? 0
        let indexCost =
            namespaceID == nil
            ? Int.max : namespaceEntries.multipliedReportingOverflow(by: Self.lookupCost).partialValue
        let limit = namespaceID == nil ? scanLimit ?? .max : .max
        if isCovered || indexCost < span {
            return Scope(throughNamespaceIndex: true, fromRowID: nil, rows: namespaceEntries)
        }
        guard span > limit, let last else { return Scope(throughNamespaceIndex: false, fromRowID: nil, rows: span) }
        return Scope(throughNamespaceIndex: false, fromRowID: last - Int64(limit) + 1, rows: limit)
    }

    /// Whether a namespace's ranking reads only what the index holding the sort column holds
    /// (see ``SortPlan/rankingIndexColumns``): SQLite then scans that index, never a row.
    private var isCovered: Bool {
        guard namespaceID != nil, regexes.isEmpty, let columns = plan.rankingIndexColumns else { return false }
        return filter.terms.allSatisfy { term in term.column.map(columns.contains) ?? false }
    }

    /// The next `count` candidates after `position`: id, key and sort values.
    private func rank(_ scope: Scope, after position: EntryCursor?, count: Int, on connection: SQLiteConnection) throws
        -> [(id: Int64, key: String, values: [CursorValue])]
    {
        let (query, parameters) = batchQuery(scope, after: position, count: count)
        var values = [CursorValue](repeating: .null, count: plan.segments[0].columns.count)
        return try connection.rows(query, parameters) { row in
            plan.readValues(of: row, segment: 0, from: 2, into: &values)
            return (row.int64(0), String(decoding: row.blob(1), as: UTF8.self), values)
        }
    }
}
