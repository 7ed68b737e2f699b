/// The SQL of ``EntryWalk``: assembled from fixed fragments (the plan's columns, order and
/// segment conditions, the filter's conditions), every value a numbered parameter of
/// ``SQLBuilder``.
extension EntryWalk {
    /// The query that walks up to `count` rows of `segment` after `resume` (id, the key when a
    /// regular expression needs it, whether the filter's tests pass, sort values) and its
    /// parameters. Within ``candidates``, the rows are found by id (`NOT INDEXED` keeps SQLite
    /// from walking an order's index instead) and sorted.
    func walkQuery(segment: Int, after resume: EntryCursor?, count: Int) -> (sql: String, values: [SQLValue]) {
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
        if let candidates { conditions.append(candidates.condition(namespaceID: namespaceID, &sql)) }
        if let resume { conditions.append(plan.after(values: resume.values, id: resume.id, segment: segment, &sql)) }
        let query = """
            SELECT id, \(regexes.isEmpty ? "NULL" : "CAST(key AS BLOB)"), \
            \(tests.isEmpty ? "1" : tests.joined(separator: " AND ")), \(plan.selected(segment))
            FROM entries\(candidates == nil ? "" : " NOT INDEXED") WHERE \(conditions.joined(separator: " AND "))
            ORDER BY \(plan.orderBy(segment)) LIMIT \(sql.parameter(count))
            """
        return (query, sql.values)
    }
}
