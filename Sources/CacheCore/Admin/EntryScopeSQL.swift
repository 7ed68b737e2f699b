import Foundation

/// A set of entries as SQL: a condition on `entries e` and its parameters (`?1`, `?2` …).
/// Statements that use a scope number their own parameters from 10 up. Every scope keeps to
/// live namespaces: entries in partitions (trash, retired) are never selected.
struct EntryScope: Sendable {
    let condition: String
    let parameters: [SQLValue]

    /// Keys per scope of a key-list selector: one `json_each` of this many keys per batch.
    static let keysPerScope = 500

    /// The scopes that together select what `target` removes at `now` (several for a long key
    /// list, one otherwise); none when it names a namespace the file lacks. Whole namespaces
    /// (`clear`, `clear all`) have no scope: they move as partitions.
    static func of(_ target: AdminTarget, now: Int64, in connection: SQLiteConnection) throws -> [EntryScope] {
        let target = target.normalized
        switch target {
        case .sweep, .invalidate(.prefix), .invalidate(.tag), .invalidate(.key), .invalidate(.keys): break
        case .clear(let name), .invalidate(.namespace(let name)):
            return try of(.invalidate(.prefix(namespace: name, prefix: "")), now: now, in: connection)
        case .clearAll, .invalidate(.all):
            return [EntryScope(condition: "e.namespace_id IN (SELECT id FROM namespaces)", parameters: [])]
        case .expiry(let selector, _):
            return try of(.invalidate(selector), now: now, in: connection)
        case .importEntries:
            throw CacheError.unsupported(feature: "import as a purge", reason: "use Admin.importEntries")
        case .deleteKeys:
            throw CacheError.unsupported(feature: "deleting Redis keys in a cache file", reason: "invalidate its entries")
        }
        return try selectorScopes(target, now: now, in: connection)
    }

    /// A sweep's bound on `stale_until`: `now` keeps the stale window, the largest time
    /// ignores it (as ``SQLiteConnection/deleteExpired(namespaceID:now:keepingStaleWindow:limit:)``).
    private static func staleBound(_ now: Int64, _ keepingStaleWindow: Bool) -> Int64 {
        keepingStaleWindow ? now : .max
    }

    private static func selectorScopes(_ target: AdminTarget, now: Int64, in connection: SQLiteConnection) throws
        -> [EntryScope]
    {
        func namespaceID(_ name: String) throws -> Int64? { try connection.namespaceRow(name: name)?.id }
        switch target {
        case .sweep(nil, let keepingStaleWindow):
            return [
                EntryScope(
                    condition:
                        "e.namespace_id IN (SELECT id FROM namespaces) AND e.expires_at <= ?1 AND coalesce(e.stale_until, e.expires_at) <= ?2",
                    parameters: [.integer(now), .integer(staleBound(now, keepingStaleWindow))])
            ]
        case .sweep(let name?, let keepingStaleWindow):
            guard let id = try namespaceID(name) else { return [] }
            return [
                EntryScope(
                    condition: "e.namespace_id = ?3 AND e.expires_at <= ?1 AND coalesce(e.stale_until, e.expires_at) <= ?2",
                    parameters: [.integer(now), .integer(staleBound(now, keepingStaleWindow)), .integer(id)])
            ]
        case .invalidate(.key(let name, let key)):
            guard let id = try namespaceID(name) else { return [] }
            // A key shown escaped (not valid UTF-8) also matches the bytes it stands for.
            return [
                EntryScope(
                    condition: "e.namespace_id = ?1 AND (e.key = ?2 OR e.key = CAST(?3 AS TEXT))",
                    parameters: [.integer(id), .text(key), .textBytes(PrintableKey.bytes(key) ?? Data(key.utf8))])
            ]
        case .invalidate(.keys(let name, let keys)):
            guard let id = try namespaceID(name) else { return [] }
            // In the key index's order, each scope's lookups walk neighbouring pages: on a 1M
            // file, 80k keys in a random order took 3.5 times as long. (Keys are in NFC, where
            // `String`'s order is their UTF-8 bytes' order, SQLite's `BINARY`.)
            let keys = keys.sorted()
            return try stride(from: 0, to: keys.count, by: keysPerScope).map { start in
                let chunk = keys[start..<min(start + keysPerScope, keys.count)]
                let json = String(decoding: try JSONEncoder().encode(Array(chunk)), as: UTF8.self)
                // Keys shown escaped (not valid UTF-8) also match the bytes they stand for.
                let escaped = chunk.compactMap { key in
                    PrintableKey.bytes(key).map { bytes in bytes.map { String(format: "%02X", $0) }.joined() }
                }
                guard !escaped.isEmpty else {
                    return EntryScope(
                        condition: "e.namespace_id = ?1 AND e.key IN (SELECT value FROM json_each(?2))",
                        parameters: [.integer(id), .text(json)])
                }
                let hex = String(decoding: try JSONEncoder().encode(escaped), as: UTF8.self)
                return EntryScope(
                    condition: """
                        e.namespace_id = ?1 AND (e.key IN (SELECT value FROM json_each(?2))
                            OR hex(e.key) IN (SELECT value FROM json_each(?3)))
                        """, parameters: [.integer(id), .text(json), .text(hex)])
            }
        case .invalidate(.prefix(let name, let prefix)):
            guard let id = try namespaceID(name) else { return [] }
            return [
                EntryScope(
                    condition: "e.namespace_id = ?1 AND e.key >= ?2 AND e.key < (?2 || CAST(x'ff' AS TEXT))",
                    parameters: [.integer(id), .text(prefix)])
            ]
        // `+e.namespace_id`: the tag index drives (a row lookup per tagged entry), never a
        // namespace index (which would test every entry of the namespace against the tag).
        case .invalidate(.tag(let tag, nil)):
            return [
                EntryScope(
                    condition:
                        "e.id IN (SELECT entry_id FROM entry_tags WHERE tag = ?1) AND +e.namespace_id IN (SELECT id FROM namespaces)",
                    parameters: [.text(tag)])
            ]
        case .invalidate(.tag(let tag, let name?)):
            guard let id = try namespaceID(name) else { return [] }
            return [
                EntryScope(
                    condition: "+e.namespace_id = ?2 AND e.id IN (SELECT entry_id FROM entry_tags WHERE tag = ?1)",
                    parameters: [.text(tag), .integer(id)])
            ]
        case .clear, .clearAll, .invalidate(.namespace), .invalidate(.all), .expiry, .importEntries, .deleteKeys:
            return []
        }
    }

    /// Binds the scope's parameters to `statement`.
    func bind(to statement: SQLiteStatement) {
        statement.bind(parameters)
    }
}
