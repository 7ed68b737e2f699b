/// Format 6: every key in Unicode Normalization Form C (see ``CanonicalKey/normalized(_:)``).
///
/// Before it, a `String` key was stored as the app spelled it, so "café" written with U+00E9
/// and with "e" + U+0301 were two rows, while the memory tier (which compares as Swift's
/// `String ==` does) held one entry. Migrating rewrites each key not in NFC to its NFC form;
/// where both spellings were stored, the one written last is kept and the other deleted.
/// Keys that are not valid UTF-8 stay as they are. Runs inside the migration's transaction.
enum NormalizedKeys {
    /// The format that introduces it.
    static let version = 6

    /// The schema step: none (``normalize(_:)`` does the work).
    static let schema = "-- format 6: keys in Normalization Form C (NormalizedKeys.normalize)"

    /// Rewrites the keys that are not in NFC; returns how many it rewrote.
    @discardableResult
    static func normalize(_ connection: SQLiteConnection) throws -> Int {
        var rewritten = 0
        for row in try connection.nonASCIIKeys() {
            guard let normal = CanonicalKey.renormalized(row.key) else { continue }
            if let other = try connection.entryStored(namespaceID: row.namespaceID, key: normal) {
                guard row.createdAt > other.createdAt else {
                    try connection.deleteEntry(id: row.id, namespaceID: row.namespaceID, size: row.size)
                    continue
                }
                try connection.deleteEntry(id: other.id, namespaceID: row.namespaceID, size: other.size)
            }
            try connection.rekeyEntry(
                id: row.id, namespaceID: row.namespaceID, key: normal, byteChange: normal.utf8.count - row.key.count)
            rewritten += 1
        }
        return rewritten
    }
}
