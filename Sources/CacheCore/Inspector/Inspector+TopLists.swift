extension Inspector {
    /// The first `limit` entries (1…1000) of a ranking, in `namespace` or across the store.
    ///
    /// A namespace is ranked whole (exact). Across the store, the ranking scans at most about
    /// `scanLimit` rows (`nil`: the whole file): a larger file has only its most recently
    /// inserted rows ranked, as ``TopList/rankedFromRowID`` says.
    ///
    /// - Throws: ``InspectorError/noSuchNamespace(_:)`` for an unknown namespace.
    public func top(
        _ kind: TopListKind, namespace: String? = nil, limit: Int = 20,
        scanLimit: Int? = EntryQuery.defaultScanLimit
    ) throws -> TopList {
        let now = store.now()
        let (sort, filter) = kind.query
        return try store.database.read { connection in
            var scope: (id: Int64, entries: Int)?
            if let namespace {
                guard let found = try connection.inspectedNamespace(named: namespace) else {
                    throw InspectorError.noSuchNamespace(namespace)
                }
                scope = found
            }
            let ranked = try EntryRanking(
                plan: SortPlan(sort), namespaceID: scope?.id, namespaceEntries: scope?.entries ?? 0,
                namespaceName: namespace ?? "", filter: filter, regexes: KeyMatcher([]), now: now, previewBytes: 64
            ).top(limit: min(max(limit, 1), 1000), scanLimit: scanLimit, on: connection)
            return TopList(
                kind: kind, namespace: namespace, now: now, rows: ranked.rows, examinedRows: ranked.examined,
                rankedFromRowID: ranked.rankedFromRowID)
        }
    }
}
