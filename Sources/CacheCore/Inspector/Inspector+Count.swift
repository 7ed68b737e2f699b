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
        let now = store.now()
        return try store.database.read { connection in
            guard let id = try connection.namespaceRow(name: namespace)?.id else {
                throw InspectorError.noSuchNamespace(namespace)
            }
            if filter.isEmpty {
                let totals = try connection.namespaceTotals(namespaceID: id)
                return EntryCount(entries: totals.entries, bytes: totals.bytes)
            }
            var sql = SQLBuilder()
            let conditions =
                ["namespace_id = \(sql.parameter(id))"] + filter.terms.compactMap { $0.sqlCondition(now: now, &sql) }
            let condition = conditions.joined(separator: " AND ")
            guard !regexes.isEmpty else {
                let totals = try connection.entryTotals(where: condition, sql.values)
                return EntryCount(entries: totals.entries, bytes: totals.bytes)
            }
            var count = EntryCount(entries: 0, bytes: 0)
            try connection.forEachEntryKey(where: condition, sql.values) { key, size in
                guard try regexes.allMatch(String(decoding: key, as: UTF8.self)) else { return }
                count = EntryCount(entries: count.entries + 1, bytes: count.bytes.addingClamped(size))
            }
            return count
        }
    }
}
