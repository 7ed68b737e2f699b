/// The SQL of ``EntryRanking``: assembled from fixed fragments (the plan's columns and order,
/// the filter's conditions), every value a numbered parameter of ``SQLBuilder``.
extension EntryRanking {
    /// The query of a batch of `count` candidates after `position` (id, the key when a regular
    /// expression needs it, sort values) and its parameters.
    func batchQuery(_ scope: Scope, after position: EntryCursor?, count: Int) -> (sql: String, values: [SQLValue]) {
        var sql = SQLBuilder()
        var conditions: [String] = []
        conditions.append(
            namespaceID.map { "namespace_id = \(sql.parameter($0))" } ?? "namespace_id IN (SELECT id FROM namespaces)")
        if let from = scope.fromRowID { conditions.append("id >= \(sql.parameter(from))") }
        if let position { conditions.append(plan.after(values: position.values, id: position.id, segment: 0, &sql)) }
        conditions += filter.terms.compactMap { $0.sqlCondition(now: now, &sql) }
        let query = """
            SELECT id, \(regexes.isEmpty ? "NULL" : "CAST(key AS BLOB)"), \(plan.selected(0))
            FROM entries\(scope.throughNamespaceIndex ? "" : " NOT INDEXED")
            WHERE \(conditions.isEmpty ? "1" : conditions.joined(separator: " AND "))
            ORDER BY \(plan.orderBy(0)) LIMIT \(sql.parameter(count))
            """
        return (query, sql.values)
    }
}
