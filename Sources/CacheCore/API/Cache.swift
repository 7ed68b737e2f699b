import Foundation

/// A typed handle on one namespace of a ``CacheStore``.
///
/// Keys are stored as canonical text (strings verbatim, integers in decimal, other `Codable`
/// keys as sorted-key JSON), so every process and launch finds the same entry. Reads never
/// return an expired entry; ``getStale(_:)`` is the one way to see one.
public struct Cache<Key: Encodable & Sendable, Value: Sendable>: Sendable {
    /// The namespace's name.
    public var namespace: String { record.name }
    /// The policy this handle writes with.
    public var policy: NamespacePolicy { record.policy }

    private let store: CacheStore
    private let record: NamespaceRecord
    private let coder: any CacheValueCoder<Value>
    let counters: NamespaceCounters

    init(store: CacheStore, namespace: NamespaceRecord, coder: any CacheValueCoder<Value>) {
        self.store = store
        self.record = namespace
        self.coder = coder
        self.counters = store.services.statistics.counters(for: namespace)
    }

    /// The live value for `key`, or `nil` when it is missing, expired, of another namespace
    /// version, older than `maxAge`, or no longer decodes (logged and counted, never thrown).
    public func get(_ key: Key, maxAge: Duration? = nil) throws -> Value? {
        guard let (canonical, entry) = try lookup(key) else { return counters.diskRead(nil) }
        let now = store.now()
        if let maxAge, now - entry.createdAt >= maxAge.milliseconds { return counters.diskRead(nil) }
        store.recordRead(entry, now: now)
        if entry.isExpired(at: now) { return counters.diskRead(nil) }
        return counters.diskRead(decoded(entry, key: canonical))
    }

    /// The stored value for `key` even if it has expired (for stale-if-error), flagged as
    /// stale with its expiry. Entries past their stale window are not returned. Deletes nothing.
    public func getStale(_ key: Key) throws -> StaleRead<Value>? {
        guard let (canonical, entry) = try lookup(key) else { return counters.diskRead(nil) }
        let now = store.now()
        guard !entry.isPurgeable(at: now), let value = decoded(entry, key: canonical) else {
            return counters.diskRead(nil)
        }
        counters.diskHit(stale: entry.isExpired(at: now))
        return StaleRead(
            value: value, isStale: entry.isExpired(at: now),
            expiresAt: entry.expiresAt.map(Date.init(millisecondsSince1970:)))
    }

    /// Whether a live value exists for `key` (without counting as a read).
    public func contains(_ key: Key) throws -> Bool {
        guard let (_, entry) = try lookup(key) else { return false }
        return !entry.isExpired(at: store.now())
    }

    /// Stores `value` for `key`. `expiration` defaults to the policy's; `tags` label the entry
    /// for invalidation. Durable when it returns.
    public func set(_ value: Value, for key: Key, expiration: Expiration? = nil, tags: [String] = []) throws {
        try set([(key, value)], expiration: expiration, tags: tags)
    }

    /// Stores many values in one transaction (much faster than one `set` each).
    public func set(_ items: [(key: Key, value: Value)], expiration: Expiration? = nil, tags: [String] = []) throws {
        guard record.policy.isEnabled, !items.isEmpty else { return }
        let rows = try items.map { item in
            let canonical = try canonicalKey(item.key)
            do {
                return (key: canonical, value: try coder.encode(item.value))
            } catch {
                throw CacheError.encodingFailed(namespace: namespace, key: canonical, reason: "\(error)")
            }
        }
        let now = store.now()
        let attributes = WriteAttributes(
            expiration: expiration ?? record.policy.expiration, policy: record.policy, tags: tags, now: now)
        try store.write(rows, in: record, attributes: attributes, now: now)
        counters.stored(count: rows.count)
    }

    /// Removes `key`; returns whether an entry was there.
    @discardableResult
    public func remove(_ key: Key) throws -> Bool {
        guard let namespaceID = try writableNamespaceID() else { return false }
        let canonical = try canonicalKey(key)
        return counters.removed(
            try store.database.write { try $0.deleteEntry(namespaceID: namespaceID, key: canonical) })
    }

    /// Removes every entry of this namespace (in batches; other namespaces are untouched).
    /// Returns how many were removed.
    @discardableResult
    public func removeAll() throws -> Int {
        guard let namespaceID = try writableNamespaceID() else { return 0 }
        return counters.removed(
            count: try store.deleteInBatches { connection in
                try connection.deleteEntries(namespaceID: namespaceID, limit: CacheStore.batchSize)
            })
    }

    /// The number of live (unexpired) entries.
    public func count() throws -> Int {
        guard record.policy.isEnabled, let namespaceID = record.id else { return 0 }
        let now = store.now()
        return try store.database.read { connection in
            let totals = try connection.namespaceTotals(namespaceID: namespaceID)
            return totals.entries - (try connection.countExpired(namespaceID: namespaceID, now: now))
        }
    }

    // MARK: Private

    private func canonicalKey(_ key: Key) throws -> String {
        try CanonicalKey.make(key, namespace: namespace)
    }

    private func lookup(_ key: Key) throws -> (String, StoredEntry)? {
        guard record.policy.isEnabled, let namespaceID = record.id else { return nil }
        let canonical = try canonicalKey(key)
        let entry = try store.database.read { try $0.lookupEntry(namespaceID: namespaceID, key: canonical) }
        guard let entry, entry.version == record.policy.version else { return nil }
        return (canonical, entry)
    }

    private func decoded(_ entry: StoredEntry, key: String) -> Value? {
        do {
            return try coder.decode(entry.value)
        } catch {
            store.noteDecodeFailure(namespace: namespace, key: key, error: error)
            return nil
        }
    }

    private func writableNamespaceID() throws -> Int64? {
        guard record.policy.isEnabled else { return nil }
        guard let namespaceID = record.id, !store.isReadOnly else { throw CacheError.readOnly(path: store.path) }
        return namespaceID
    }
}

extension Cache where Value: CacheEntity, Key == Value.CacheKey {
    /// Stores `entity` under its own ``CacheEntity/cacheKey``.
    public func put(_ entity: Value, expiration: Expiration? = nil, tags: [String] = []) throws {
        try set(entity, for: entity.cacheKey, expiration: expiration, tags: tags)
    }

    /// Stores many entities in one transaction.
    public func put(_ entities: [Value], expiration: Expiration? = nil, tags: [String] = []) throws {
        try set(entities.map { (key: $0.cacheKey, value: $0) }, expiration: expiration, tags: tags)
    }
}
