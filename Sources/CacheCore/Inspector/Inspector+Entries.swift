extension Inspector {
    /// One page of a namespace's entries in the query's order, filtered.
    ///
    /// Orders with an index (``EntrySortField/hasIndex``) walk it from the cursor, examining at
    /// most about ``EntryQuery/scanLimit`` rows; the others rank the whole namespace through
    /// the index that holds the sort column. A filter that requires a tag whose entries (under
    /// the filter's key prefix) number at most ``TagRange/readWholeLimit`` reads just those,
    /// in any order. Either way the order is exact, and following
    /// ``EntryPage/next`` visits every matching row exactly once.
    ///
    /// - Throws: ``InspectorError`` for an unknown namespace or a cursor of another query,
    ///   ``EntryFilterError`` for a regular expression that does not compile, ``CacheError``
    ///   when the file cannot be read.
    public func entries(_ query: EntryQuery) throws -> EntryPage {
        let regexes = KeyMatcher(try query.filter.compiledRegexes())
        let limit = min(max(query.limit, 1), 10_000)
        let previewBytes = min(max(query.previewBytes, 0), 4096)
        let now = store.now()
        if let cursor = query.after, cursor.namespace != query.namespace || cursor.sort != query.sort {
            throw InspectorError.cursorMismatch
        }
        if let cursor = query.after, !cursor.isWellFormed { throw InspectorError.invalidCursor }
        if query.sort.field == .sortValue, !store.database.hasSortValues {
            throw InspectorError.noSortValues
        }
        return try store.database.read { connection in
            guard let namespace = try connection.inspectedNamespace(named: query.namespace) else {
                throw InspectorError.noSuchNamespace(query.namespace)
            }
            let plan = SortPlan(query.sort)
            let candidates =
                store.database.hasTagKeys
                ? try TagRange.smallest(for: query.filter, namespaceID: namespace.id, on: connection) : nil
            if query.sort.field.hasIndex || candidates != nil {
                return try EntryWalk(
                    plan: plan, namespaceID: namespace.id, namespaceName: query.namespace, filter: query.filter,
                    regexes: regexes, now: now, previewBytes: previewBytes, candidates: candidates
                ).page(limit: limit, after: query.after, scanLimit: query.scanLimit, on: connection)
            }
            return try EntryRanking(
                plan: plan, namespaceID: namespace.id, namespaceEntries: namespace.entries,
                namespaceName: query.namespace, filter: query.filter, regexes: regexes, now: now,
                previewBytes: previewBytes
            ).page(limit: limit, after: query.after, scanLimit: query.scanLimit, on: connection)
        }
    }
}
