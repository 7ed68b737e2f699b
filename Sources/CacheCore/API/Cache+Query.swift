import Foundation

/// Queries an app makes on its own namespace, decoded (a cache file's; a Redis store refuses
/// them). They read the file after writing the sets waiting in a write-behind queue.
extension Cache where Key: Decodable {
    /// A page of the entries `query` selects, keys and values decoded, in its order.
    public func entries(_ query: CacheQuery = CacheQuery()) throws -> CachePage<Key, Value> {
        guard record.policy.isEnabled else { return CachePage(entries: [], next: nil) }
        let store = try queriedStore()
        var request = EntryQuery(
            namespace: namespace, sort: query.order, filter: query.entryFilter, limit: 10_000, after: query.after,
            previewBytes: 0, scanLimit: nil)
        if request.after == nil, !query.includesExpired, query.order == EntrySort(.expires) {
            request.after = EntryCursor.pastExpired(of: namespace, now: store.now())
        }
        var skip = max(query.offset, 0)
        while skip > 0 {
            request.limit = min(skip, 10_000)
            let skipped = try store.inspector.entries(request)
            skip -= skipped.rows.count
            guard let next = skipped.next, !skipped.rows.isEmpty else { return CachePage(entries: [], next: nil) }
            request.after = next
        }
        request.limit = min(max(query.limit, 1), 10_000)
        let page = try store.inspector.entries(request)
        let hasSortValues = store.database.hasSortValues
        let values = try store.database.read {
            try $0.values(ofEntries: page.rows.map(\.id), withSortValues: hasSortValues)
        }
        let entries = page.rows.compactMap { row -> CachedEntry<Key, Value>? in
            guard let key = CanonicalKey.decode(Key.self, from: row.key), let stored = values[row.id],
                let value = decoded(stored.value, key: row.key)
            else { return nil }
            return CachedEntry(
                key: key, value: value, createdAt: Date(millisecondsSince1970: row.createdAt),
                expiresAt: row.expiresAt.map(Date.init(millisecondsSince1970:)), tags: row.tags,
                sortValue: stored.sortValue)
        }
        return CachePage(entries: entries, next: page.next)
    }

    /// How many entries `query` selects (its page and order aside).
    public func count(matching query: CacheQuery) throws -> Int {
        guard record.policy.isEnabled else { return 0 }
        return try queriedStore().inspector.count(namespace: namespace, filter: query.entryFilter).entries
    }

    /// The cache file behind the handle, its write-behind sets written.
    private func queriedStore() throws -> CacheStore {
        guard let store = backend as? CacheStore, record.policy.tiers.usesDisk else {
            throw CacheError.unsupported(
                feature: "queries", reason: "they read a cache file; this namespace keeps no entries in one")
        }
        try store.flushPendingWrites(force: true)
        return store
    }
}

extension CacheStore {
    /// The live (unexpired) entries of every namespace.
    public func count() throws -> Int {
        try flushPendingWrites(force: true)
        let now = now()
        return try database.read { connection in
            try connection.readTransaction {
                try connection.namespaceIDs().reduce(0) { total, id in
                    total + (try connection.namespaceTotals(namespaceID: id).entries)
                        - (try connection.countExpired(namespaceID: id, now: now))
                }
            }
        }
    }
}

extension EntryCursor {
    /// In expiry order, the position after every entry expired at `now`: a live-only query
    /// starts there with one index seek instead of walking the expired entries not yet swept.
    static func pastExpired(of namespace: String, now: Int64) -> EntryCursor {
        EntryCursor(
            namespace: namespace, sort: EntrySort(.expires), segment: 0,
            values: [.integer(now), .integer(.max), .integer(.max)], id: .max)
    }
}

extension CanonicalKey {
    /// The key whose canonical text is `text` (see ``make(_:namespace:)``): a string as it is,
    /// an integer from its digits, other keys from their JSON (a bare string's without quotes).
    static func decode<Key: Decodable>(_ type: Key.Type, from text: String) -> Key? {
        if let string = text as? Key { return string }
        if Key.self == Int.self { return Int(text) as? Key }
        let decoder = JSONDecoder()
        if let key = try? decoder.decode(Key.self, from: Data(text.utf8)) { return key }
        guard let quoted = try? JSONEncoder().encode(text) else { return nil }
        return try? decoder.decode(Key.self, from: quoted)
    }
}
