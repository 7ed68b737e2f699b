import Foundation

/// The SQL of ``Inspector/locate(id:in:)``: the entry's sort values, and the conditions that
/// select the matching rows before it, assembled from ``SortPlan`` fragments with every value
/// a numbered parameter of ``SQLBuilder``.
struct EntryLocator {
    let plan: SortPlan
    let namespaceID: Int64
    let filter: EntryFilter
    let now: Int64

    /// The segment of the order the entry is in, its sort values and its key (raw bytes), when
    /// it exists in the namespace and passes the filter's SQL terms.
    func sortValues(of id: Int64, on connection: SQLiteConnection) throws -> (
        segment: Int, values: [CursorValue], key: Data
    )? {
        for segment in plan.segments.indices {
            var sql = SQLBuilder()
            let conditions = ["id = \(sql.parameter(id))"] + matching(segment: segment, &sql)
            let query = """
                SELECT CAST(key AS BLOB), \(plan.selected(segment)) FROM entries
                WHERE \(conditions.joined(separator: " AND "))
                """
            var values = [CursorValue](repeating: .null, count: plan.segments[segment].columns.count)
            let found = try connection.rows(query, sql.values) { row in
                plan.readValues(of: row, segment: segment, from: 1, into: &values)
                return row.blob(0)
            }
            if let key = found.first { return (segment, values, key) }
        }
        return nil
    }

    /// Conditions (with their values) whose rows together are the matching rows before the
    /// entry `id` with `values` in `segment`: every row of the segments listed before it, and
    /// the rows of its own segment that its reversed direction lists after it.
    func conditionsBefore(segment: Int, values: [CursorValue], id: Int64) -> [(String, [SQLValue])] {
        var order = plan.sort
        order.descending.toggle()
        let reversed = SortPlan(order)
        let condition = plan.segments[segment].condition
        let mirror = reversed.segments.firstIndex { $0.condition == condition } ?? segment
        return (0...segment).map { index in
            var sql = SQLBuilder()
            var conditions = matching(segment: index, &sql)
            if index == segment { conditions.append(reversed.after(values: values, id: id, segment: mirror, &sql)) }
            return (conditions.joined(separator: " AND "), sql.values)
        }
    }

    /// The namespace, `segment`'s condition and the filter's SQL terms.
    private func matching(segment: Int, _ sql: inout SQLBuilder) -> [String] {
        var conditions = ["namespace_id = \(sql.parameter(namespaceID))"]
        if let condition = plan.segments[segment].condition { conditions.append(condition) }
        return conditions + filter.terms.compactMap { $0.sqlCondition(now: now, &sql) }
    }
}
