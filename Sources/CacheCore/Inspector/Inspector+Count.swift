import Foundation

/// How many entries a filter matches, and their bytes.
public struct EntryCount: Sendable, Hashable, Codable {
    /// Entries that match.
    public let entries: Int
    /// Their key plus value bytes.
    public let bytes: Int
}

extension Inspector {
    /// Exactly how many entries of `namespace` match `filter` now, and their bytes: what an
    /// action on the filter would remove at this moment. An empty filter is answered from the
    /// namespace's counters; terms SQL can test are counted in one statement (through an index
    /// where one fits: a key prefix, an expiry range); regular expressions are tested on each
    /// remaining key.
    ///
    /// - Throws: ``InspectorError/noSuchNamespace(_:)`` for an unknown namespace,
    ///   ``EntryFilterError`` for a regular expression that does not compile or gives up
    ///   (100 ms on one key, 2 s in all).
    public func count(namespace: String, filter: EntryFilter) throws -> EntryCount {
        let regexes = KeyMatcher(try filter.compiledRegexes())
        return try store.database.read { connection in
            let (id, condition, values) = try matching(namespace, filter, on: connection)
            if filter.isEmpty {
                let totals = try connection.namespaceTotals(namespaceID: id)
                return EntryCount(entries: totals.entries, bytes: totals.bytes)
            }
            guard !regexes.isEmpty else {
                let totals = try connection.entryTotals(where: condition, values)
                return EntryCount(entries: totals.entries, bytes: totals.bytes)
            }
            var count = EntryCount(entries: 0, bytes: 0)
            try connection.forEachEntryKey(where: condition, values) { key, size in
                guard try regexes.allMatch(String(decoding: key, as: UTF8.self)) else { return }
                count = EntryCount(entries: count.entries + 1, bytes: count.bytes.addingClamped(size))
            }
            return count
        }
    }

    /// The keys of the entries of `namespace` that match `filter` now, as ``EntryRow/key``
    /// shows them, at most `limit` of them: what ``count(namespace:filter:)`` counts, read in
    /// one statement instead of page by page (an action on a filter selects these keys).
    ///
    /// - Throws: as ``count(namespace:filter:)``.
    public func keys(namespace: String, filter: EntryFilter, limit: Int) throws -> [String] {
        let regexes = KeyMatcher(try filter.compiledRegexes())
        return try store.database.read { connection in
            let (_, condition, values) = try matching(namespace, filter, on: connection)
            var keys: [String] = []
            try connection.forEachEntryKey(where: condition, values) { key, _ in
                guard keys.count < limit, try regexes.allMatch(String(decoding: key, as: UTF8.self)) else { return }
                keys.append(PrintableKey.text(key))
            }
            return keys
        }
    }

    /// The live id of `namespace` and the SQL condition (with its values) of the entries of it
    /// that `filter`'s SQL terms select now.
    private func matching(_ namespace: String, _ filter: EntryFilter, on connection: SQLiteConnection) throws -> (
        id: Int64, condition: String, values: [SQLValue]
    ) {
        guard let id = try connection.namespaceRow(name: namespace)?.id else {
            throw InspectorError.noSuchNamespace(namespace)
        }
        let now = store.now()
        var sql = SQLBuilder()
        let conditions =
            ["namespace_id = \(sql.parameter(id))"] + filter.terms.compactMap { $0.sqlCondition(now: now, &sql) }
        return (id, conditions.joined(separator: " AND "), sql.values)
    }
}
