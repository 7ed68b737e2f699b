extension EntryCursor {
    /// Whether every field is one a page in the cursor's own order could hand out: a segment
    /// of that order, one value per sort column of the segment with the column's type (`NULL`
    /// only where the column allows it).
    /// A cursor decoded from text is input, so nothing downstream may assume more than this.
    var isWellFormed: Bool {
        let plan = SortPlan(sort)
        guard plan.segments.indices.contains(segment) else { return false }
        let columns = plan.segments[segment].columns
        guard values.count == columns.count else { return false }
        for (value, column) in zip(values, columns) {
            switch value {
            case .null: guard column.isNullable else { return false }
            case .text: guard column.isText else { return false }
            case .integer: guard !column.isText else { return false }
            }
        }
        return true
    }
}
