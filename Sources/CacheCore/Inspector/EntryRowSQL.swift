import Foundation

/// The select list of an ``EntryRow`` and how a result row becomes one.
enum EntryRowSQL {
    /// The row's columns; a query puts the value preview right after them, at ``previewColumn``.
    /// The key is read as bytes (a key that is not valid UTF-8 still resumes a page exactly);
    /// the value's length comes from the record header, without reading the value.
    static let columns = """
        id, namespace_id, CAST(key AS BLOB), size, created_at, expires_at, stale_until, accessed_at, hits, version, \
        tags, iif(typeof(value) = 'blob', length(value), length(CAST(value AS BLOB)))
        """
    static let previewColumn: Int32 = 12

    /// The first `length` bytes of the value (`length` is a placeholder), never the whole value.
    static func preview(_ length: String) -> String { "substr(CAST(value AS BLOB), 1, \(length))" }

    /// One entry by row id (`?1`) with a preview of `?2` bytes.
    static let byID = "SELECT \(columns), \(preview("?2")) FROM entries WHERE id = ?1"

    private static let tagDecoder = JSONDecoder()

    /// The row the statement is on; `namespaces` names the namespace ids.
    static func read(_ row: SQLiteStatement, namespaces: [Int64: String]) -> EntryRow {
        let tagsJSON = row.isNull(10) ? nil : row.blob(10)
        return EntryRow(
            id: row.int64(0), namespace: namespaces[row.int64(1)] ?? "",
            key: PrintableKey.text(row.blob(2)),
            size: row.int(3), valueBytes: row.int(11), createdAt: row.int64(4), expiresAt: row.optionalInt64(5),
            staleUntil: row.optionalInt64(6), lastAccessAt: row.int(8) == 0 ? nil : row.int64(7), hits: row.int(8), version: row.text(9),
            tags: tagsJSON.flatMap { try? tagDecoder.decode([String].self, from: $0) } ?? [],
            preview: row.blob(previewColumn))
    }
}

extension SQLiteConnection {
    /// The entry with row id `id`, with the first `previewBytes` bytes of its value.
    func entryRow(id: Int64, previewBytes: Int, namespaces: [Int64: String]) throws -> EntryRow? {
        try withDynamicStatement(EntryRowSQL.byID) { statement in
            statement.bind(id, previewBytes)
            return try statement.firstRow { EntryRowSQL.read($0, namespaces: namespaces) }
        }
    }

    /// The sort value of entry `id` (format 7 and later), `nil` when it has none.
    func sortValue(ofEntry id: Int64) throws -> Int64? {
        try withStatement("SELECT sort_value FROM entries WHERE id = ?1") { statement in
            statement.bind(id)
            return try statement.firstRow { $0.optionalInt64(0) } ?? nil
        }
    }
}
