/// The entries of one namespace that carry a tag, under a key prefix if the filter has one:
/// one range of `entry_tags_by_key (tag, namespace_id, key)` (format 9).
///
/// A filter that requires a tag selects only entries of that range, so when the range is
/// small a page reads those rows, orders them and tests the rest of the filter on them,
/// whatever the order asked (``EntryWalk`` with `candidates`): a page by tag and prefix costs
/// what the range holds instead of a walk of every key under the prefix (or of the whole
/// namespace in the other orders). A larger range is walked in the order's index as before,
/// where matches are then frequent enough to fill a page quickly.
struct TagRange {
    let tag: String
    /// The filter's longest key prefix, if it has one.
    let prefix: String?

    /// Ranges of at most this many entries are read whole for a page; larger ones are walked.
    static let readWholeLimit = 4096

    /// Of the ranges `filter`'s tags give in the namespace, the one with the fewest entries,
    /// when it holds at most ``readWholeLimit`` (counted from the index alone, up to that limit).
    static func smallest(
        for filter: EntryFilter, namespaceID: Int64, on connection: SQLiteConnection
    ) throws -> TagRange? {
        var prefixes: [String] = []
        var tags: [String] = []
        for term in filter.terms {
            if case .tag(let tag) = term { tags.append(tag) }
            if case .keyPrefix(let prefix) = term { prefixes.append(prefix) }
        }
        let prefix = prefixes.max { $0.utf8.count < $1.utf8.count }
        var best: (range: TagRange, entries: Int)?
        for tag in Set(tags) {
            let range = TagRange(tag: tag, prefix: prefix)
            let entries = try range.count(namespaceID: namespaceID, upTo: readWholeLimit + 1, on: connection)
            if entries <= readWholeLimit, entries < best?.entries ?? .max { best = (range, entries) }
        }
        return best?.range
    }

    /// The condition "`entries.id` is in the range", its values parameters of `sql`.
    func condition(namespaceID: Int64, _ sql: inout SQLBuilder) -> String {
        "id IN (SELECT entry_id FROM entry_tags WHERE \(rangeCondition(namespaceID: namespaceID, &sql)))"
    }

    /// The entries in the range, counted up to `limit`.
    private func count(namespaceID: Int64, upTo limit: Int, on connection: SQLiteConnection) throws -> Int {
        var sql = SQLBuilder()
        let range = rangeCondition(namespaceID: namespaceID, &sql)
        let query =
            "SELECT count(*) FROM (SELECT 1 FROM entry_tags WHERE \(range) LIMIT \(sql.parameter(limit)))"
        return try connection.withDynamicStatement(query) { statement in
            statement.bind(sql.values)
            return try statement.step() ? Int(statement.int64(0)) : 0
        }
    }

    /// `entry_tags` rows of the tag in the namespace, under the prefix.
    private func rangeCondition(namespaceID: Int64, _ sql: inout SQLBuilder) -> String {
        var condition = "tag = \(sql.parameter(.text(tag))) AND namespace_id = \(sql.parameter(namespaceID))"
        if let prefix, !prefix.isEmpty {
            let (lower, upper) = EntryFilterTerm.prefixBounds(prefix)
            condition += " AND key >= \(sql.parameter(lower)) AND key < \(sql.parameter(upper))"
        }
        return condition
    }
}
