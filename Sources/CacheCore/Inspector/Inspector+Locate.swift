import Foundation

/// Where one entry is in an order: how many matching rows come before it, and the cursor a
/// page starting at it continues from.
public struct EntryLocation: Sendable, Hashable {
    /// Matching rows before the entry in the query's order (0: it is the first).
    public let position: Int
    /// The cursor whose page starts with the entry (give it as ``EntryQuery/after``).
    public let start: EntryCursor
}

extension Inspector {
    /// Where the entry with row id `id` is in `query`'s order and filter now; `nil` when it no
    /// longer exists or no longer matches. The count is exact: SQL-testable terms are counted
    /// in one statement per segment of the order, regular expressions on each key before it.
    /// It lets a browser keep its cursor on an entry that moved far in the order.
    ///
    /// - Throws: as ``entries(_:)``.
    public func locate(id: Int64, in query: EntryQuery) throws -> EntryLocation? {
        let regexes = KeyMatcher(try query.filter.compiledRegexes())
        let now = store.now()
        return try store.database.read { connection in
            guard let namespace = try connection.inspectedNamespace(named: query.namespace) else {
                throw InspectorError.noSuchNamespace(query.namespace)
            }
            let locator = EntryLocator(
                plan: SortPlan(query.sort), namespaceID: namespace.id, filter: query.filter, now: now)
            guard let (segment, values, key) = try locator.sortValues(of: id, on: connection),
                try regexes.allMatch(String(decoding: key, as: UTF8.self))
            else { return nil }
            var position = 0
            for (condition, parameters) in locator.conditionsBefore(segment: segment, values: values, id: id) {
                if regexes.isEmpty {
                    position += try connection.entryTotals(where: condition, parameters).entries
                } else {
                    try connection.forEachEntryKey(where: condition, parameters) { key, _ in
                        if try regexes.allMatch(String(decoding: key, as: UTF8.self)) { position += 1 }
                    }
                }
            }
            let start = EntryCursor(
                namespace: query.namespace, sort: query.sort, segment: segment, values: values,
                id: query.sort.descending ? id.addingClamped(1) : id.subtractingClamped(1))
            return EntryLocation(position: position, start: start)
        }
    }
}

extension EntryCursor {
    /// The same place in the reversed order: a page after it lists the rows before this place,
    /// nearest first (a browser reads upwards with it). `nil` for the sort value's order, whose
    /// reverse is no ``EntrySort`` (entries without a value come last in both directions).
    public var reversed: EntryCursor? {
        var order = sort
        order.descending.toggle()
        let forward = SortPlan(sort).segments.map(\.condition)
        let backward = SortPlan(order).segments.map(\.condition)
        guard backward == forward.reversed() else { return nil }
        return EntryCursor(
            namespace: namespace, sort: order, segment: backward.count - 1 - segment, values: values,
            id: sort.descending ? id.subtractingClamped(1) : id.addingClamped(1))
    }
}
