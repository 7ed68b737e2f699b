import Foundation

/// A set of entries as SQL: a condition on `entries e` and its parameters (`?1`, `?2` …).
/// Statements that use a scope number their own parameters from 10 up.
struct EntryScope {
    let condition: String
    let parameters: [any SQLiteBindable]

    /// The entries `target` removes at `now`; `nil` when it names a namespace the file lacks.
    static func of(_ target: AdminTarget, now: Int64, in connection: SQLiteConnection) throws -> EntryScope? {
        func namespaceID(_ name: String) throws -> Int64? { try connection.namespaceRow(name: name)?.id }
        switch target {
        case .sweep(nil):
            return EntryScope(condition: "e.expires_at <= ?1 AND e.stale_until <= ?1", parameters: [now])
        case .sweep(let name?):
            guard let id = try namespaceID(name) else { return nil }
            return EntryScope(
                condition: "e.namespace_id = ?2 AND e.expires_at <= ?1 AND e.stale_until <= ?1", parameters: [now, id])
        case .clear(let name):
            guard let id = try namespaceID(name) else { return nil }
            return EntryScope(condition: "e.namespace_id = ?1", parameters: [id])
        case .clearAll, .invalidate(.all):
            return EntryScope(condition: "1", parameters: [])
        case .invalidate(.namespace(let name)):
            return try of(.clear(namespace: name), now: now, in: connection)
        case .invalidate(.key(let name, let key)):
            guard let id = try namespaceID(name) else { return nil }
            // A key shown escaped (not valid UTF-8) also matches the bytes it stands for.
            return EntryScope(
                condition: "e.namespace_id = ?1 AND (e.key = ?2 OR e.key = CAST(?3 AS TEXT))",
                parameters: [id, key, PrintableKey.bytes(key) ?? Data(key.utf8)])
        case .invalidate(.keys(let name, let keys)):
            guard let id = try namespaceID(name) else { return nil }
            let json = String(decoding: try JSONEncoder().encode(keys), as: UTF8.self)
            // Keys shown escaped (not valid UTF-8) also match the bytes they stand for.
            let escaped = keys.compactMap { key in
                PrintableKey.bytes(key).map { bytes in bytes.map { String(format: "%02X", $0) }.joined() }
            }
            guard !escaped.isEmpty else {
                return EntryScope(
                    condition: "e.namespace_id = ?1 AND e.key IN (SELECT value FROM json_each(?2))",
                    parameters: [id, json])
            }
            let hex = String(decoding: try JSONEncoder().encode(escaped), as: UTF8.self)
            return EntryScope(
                condition: """
                    e.namespace_id = ?1 AND (e.key IN (SELECT value FROM json_each(?2))
                        OR hex(e.key) IN (SELECT value FROM json_each(?3)))
                    """, parameters: [id, json, hex])
        case .invalidate(.prefix(let name, let prefix)):
            guard let id = try namespaceID(name) else { return nil }
            return EntryScope(
                condition: "e.namespace_id = ?1 AND e.key >= ?2 AND e.key < (?2 || CAST(x'ff' AS TEXT))",
                parameters: [id, prefix])
        case .invalidate(.tag(let tag, nil)):
            return EntryScope(
                condition: "e.id IN (SELECT entry_id FROM entry_tags WHERE tag = ?1)", parameters: [tag])
        case .invalidate(.tag(let tag, let name?)):
            guard let id = try namespaceID(name) else { return nil }
            return EntryScope(
                condition: "e.namespace_id = ?2 AND e.id IN (SELECT entry_id FROM entry_tags WHERE tag = ?1)",
                parameters: [tag, id])
        }
    }

    /// Binds the scope's parameters to `statement`.
    func bind(to statement: SQLiteStatement) {
        for (offset, value) in parameters.enumerated() { value.bind(to: statement, at: Int32(offset + 1)) }
    }
}
