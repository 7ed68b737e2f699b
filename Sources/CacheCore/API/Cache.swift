import Foundation

/// A typed handle on one namespace of a ``CacheStore`` (a SQLite file) or a `RedisStore` (CacheCoreRedis)
/// (a Redis server): the same calls behave the same on both.
///
/// Keys are stored as canonical text (strings verbatim, integers in decimal, other `Codable`
/// keys as sorted-key JSON), so every process and launch finds the same entry. Reads never
/// return an expired entry; ``getStale(_:)`` is the one way to see one.
public struct Cache<Key: Encodable & Sendable, Value: Sendable>: Sendable {
    /// The namespace's name.
    public var namespace: String { record.name }
    /// The policy this handle writes with.
    public var policy: NamespacePolicy { record.policy }

    /// The store behind the handle.
    let backend: any CacheBackend
    /// The store's clock, kept here so a memory hit calls nothing through ``backend``.
    @usableFromInline let clock: any CacheClock
    @usableFromInline let record: NamespaceRecord
    @usableFromInline let runtime: NamespaceRuntime
    /// The runtime's memory tier, kept here so a hit does not retain it through ``runtime``.
    @usableFromInline let memory: MemoryTier?
    private let coder: any CacheValueCoder<Value>
    @usableFromInline let counters: NamespaceCounters

    package init(
        backend: any CacheBackend, namespace: NamespaceRecord, runtime: NamespaceRuntime,
        coder: any CacheValueCoder<Value>
    ) {
        self.backend = backend
        self.clock = backend.options.clock
        self.record = namespace
        self.runtime = runtime
        self.memory = runtime.memory
        self.coder = coder
        self.counters = backend.counters(for: namespace)
    }

    /// The live value for `key`, or `nil` when it is missing, expired, of another namespace
    /// version, at least `maxAge` old, or no longer decodes (logged and counted, never thrown).
    /// Like expiry (`now >= expiresAt`), `maxAge` is exclusive: an entry written exactly
    /// `maxAge` ago is too old; one written a millisecond later is returned.
    /// Reads try memory, then the store (file or server); a store hit is copied into memory
    /// with its expiry.
    ///
    /// A memory hit is inlined into the caller and specialized for its types (no run-time
    /// generic lookups), and reads the clock only for an entry that expires or a `maxAge`,
    /// which keeps it near a dictionary lookup behind a lock.
    @inlinable
    public func get(_ key: Key, maxAge: Duration? = nil) throws -> Value? {
        guard record.policy.isEnabled else { return nil }
        let text = try keyText(key)
        if let value = memory?.hit(text, as: Value.self, maxAge: maxAge?.milliseconds, clock: clock) {
            return value
        }
        return try getBeyondMemory(CanonicalKey.normalized(text), now: clock.nowMilliseconds(), maxAge: maxAge)
    }

    /// ``get(_:maxAge:)`` past a memory hit: the write-behind queue and the file.
    @usableFromInline func getBeyondMemory(_ key: String, now: Int64, maxAge: Duration?) throws -> Value? {
        guard let found = try find(key, now: now, allowStale: false),
            maxAge.map({ now.subtractingClamped(found.writtenAt) < $0.milliseconds }) ?? true
        else {
            counters.miss()
            return nil
        }
        found.count(in: counters, at: now)
        return found.value
    }

    /// The stored value for `key` even if it has expired (for stale-if-error), flagged as
    /// stale with its expiry. Entries past their stale window are not returned. Deletes nothing.
    public func getStale(_ key: Key) throws -> StaleRead<Value>? {
        guard record.policy.isEnabled else { return nil }
        let now = clock.nowMilliseconds()
        guard let found = try find(try canonicalKey(key), now: now, allowStale: true) else {
            counters.miss()
            return nil
        }
        found.count(in: counters, at: now)
        return found.read(at: now)
    }

    /// Whether a live value exists for `key` (without counting as a read).
    public func contains(_ key: Key) throws -> Bool {
        guard record.policy.isEnabled else { return false }
        let canonical = try canonicalKey(key)
        let now = clock.nowMilliseconds()
        if let entry = runtime.memory?.get(canonical, now: now), !entry.isExpired(at: now) {
            return true
        }
        if writesBehind, let write = runtime.pending.value(for: canonical) {
            return !write.attributes.isExpired(at: now)
        }
        guard record.policy.tiers.usesDisk else { return false }
        let entry = try backend.lookup(canonical, in: runtime)
        guard let entry, entry.version == record.policy.version else { return false }
        return !entry.isExpired(at: now)
    }

    /// Stores `value` for `key`. `expiration` defaults to the policy's; `tags` label the entry
    /// for invalidation; `sortValue` is the app's own order for it (a message's date, say, as
    /// milliseconds since 1970), which queries order by (``EntrySortField/sortValue``) and
    /// ``NamespacePolicy/keepingNewest(_:by:)`` keeps the highest of. Durable when it returns,
    /// unless the policy writes behind.
    public func set(
        _ value: Value, for key: Key, expiration: Expiration? = nil, tags: [String] = [], sortValue: Int64? = nil
    ) throws {
        try set([CacheItem(key: key, value: value, tags: tags, sortValue: sortValue)], expiration: expiration)
    }

    /// Stores many values in one transaction (much faster than one `set` each).
    public func set(_ items: [(key: Key, value: Value)], expiration: Expiration? = nil, tags: [String] = []) throws {
        let policy = record.policy
        guard policy.isEnabled, !items.isEmpty else { return }
        let now = clock.nowMilliseconds()
        let attributes = WriteAttributes(
            expiration: expiration ?? policy.expiration, policy: policy, tags: tags, now: now)
        try write(items.map { ($0.key, $0.value, attributes) }, now: now)
    }

    /// Stores many values, each with tags of its own, in one transaction (an email app's
    /// `saveAll`, each message tagged with its folder).
    public func set(_ items: [(key: Key, value: Value, tags: [String])], expiration: Expiration? = nil) throws {
        try set(items.map { CacheItem(key: $0.key, value: $0.value, tags: $0.tags) }, expiration: expiration)
    }

    /// Stores many values, each with its own tags and sort value, in one transaction (an
    /// email app's `saveAll`: each message tagged with its folder, sorted by its date).
    public func set(_ items: [CacheItem<Key, Value>], expiration: Expiration? = nil) throws {
        let policy = record.policy
        guard policy.isEnabled, !items.isEmpty else { return }
        let now = clock.nowMilliseconds()
        let expiration = expiration ?? policy.expiration
        try write(
            items.map {
                let attributes = WriteAttributes(
                    expiration: expiration, policy: policy, tags: $0.tags, sortValue: $0.sortValue, now: now)
                return ($0.key, $0.value, attributes)
            },
            now: now)
    }

    /// Writes `items` set at `now` through the tiers: memory, the write-behind queue or the file.
    private func write(_ items: [(key: Key, value: Value, attributes: WriteAttributes)], now: Int64) throws {
        let policy = record.policy
        let measured = policy.tiers.usesDisk || policy.memoryMaxBytes != nil
        let writes = try items.map { item in
            let canonical = try canonicalKey(item.key)
            return EntryWrite(
                key: canonical, value: measured ? try encoded(item.value, key: canonical) : Data(),
                attributes: item.attributes, writtenAt: now)
        }
        let remember = {
            guard let memory = runtime.memory else { return }
            for (write, item) in zip(writes, items) {
                let times = policy.memoryCopyTimes(
                    expiresAt: write.attributes.expiresAt, staleUntil: write.attributes.staleUntil, now: now)
                let size = write.key.utf8.count + (measured ? write.value.count : MemoryLayout<Value>.size)
                memory.set(
                    TypedMemoryEntry(
                        item.value, key: write.key, writtenAt: now, expiresAt: times.expiresAt,
                        staleUntil: times.staleUntil, size: size, tags: write.attributes.tags))
            }
        }
        if !policy.tiers.usesDisk {
            remember()
        } else if runtime.writeBehind != nil {
            remember()
            for write in writes { runtime.pending.add(write) }
        } else {
            try backend.write(writes, in: runtime, committed: remember)
        }
        counters.stored(count: writes.count)
    }

    /// Removes `key` (and what dependency rules add); returns whether an entry was there.
    @discardableResult
    public func remove(_ key: Key) throws -> Bool {
        guard record.policy.isEnabled else { return false }
        let selector = InvalidationSelector.key(namespace: namespace, key: try canonicalKey(key))
        let result = try backend.invalidate([selector], countedAs: .removes)
        return (result.removals.first?.removed ?? 0) > 0
    }

    /// Removes every entry of this namespace (in batches; other namespaces are untouched
    /// unless dependency rules say so). Returns how many this namespace lost.
    @discardableResult
    public func removeAll() throws -> Int {
        guard record.policy.isEnabled else { return 0 }
        return try backend.invalidate([.namespace(namespace)], countedAs: .removes).removals.first?.removed ?? 0
    }

    /// Removes `keys` (and what dependency rules add).
    @discardableResult
    public func invalidate(_ keys: [Key]) throws -> InvalidationResult {
        try backend.invalidate(
            [.keys(namespace: namespace, keys: try keys.map(canonicalKey))], countedAs: .invalidations)
    }

    /// Removes every key starting with `prefix` (canonical key text, normalized as keys are).
    @discardableResult
    public func invalidate(prefix: String) throws -> InvalidationResult {
        try backend.invalidate(
            [.prefix(namespace: namespace, prefix: CanonicalKey.normalized(prefix))], countedAs: .invalidations)
    }

    /// Removes every entry of this namespace tagged `tag`.
    @discardableResult
    public func invalidate(tag: String) throws -> InvalidationResult {
        try backend.invalidate([.tag(tag, namespace: namespace)], countedAs: .invalidations)
    }

    /// The number of live (unexpired) entries.
    public func count() throws -> Int {
        guard record.policy.isEnabled else { return 0 }
        let now = clock.nowMilliseconds()
        guard record.policy.tiers.usesDisk else { return runtime.memory?.liveCount(at: now) ?? 0 }
        return try backend.liveCount(of: record, runtime: runtime, now: now)
    }

    // MARK: Reading through the tiers

    /// A value found by ``find(_:now:allowStale:)`` and what its entry says.
    struct Found: Sendable {
        let value: Value
        let writtenAt: Int64
        let expiresAt: Int64?
        /// Whether it came from the file (else from memory or the write-behind queue).
        let fromFile: Bool

        /// Counts the read: a stale hit when expired, else a memory or file hit.
        func count(in counters: NamespaceCounters, at now: Int64) {
            if expiresAt.map({ now >= $0 }) == true {
                counters.staleHit()
            } else if fromFile {
                counters.diskHit()
            } else {
                counters.memoryHit()
            }
        }

        func read(at now: Int64) -> StaleRead<Value> {
            StaleRead(
                value: value, isStale: expiresAt.map { now >= $0 } ?? false,
                expiresAt: expiresAt.map(Date.init(millisecondsSince1970:)))
        }
    }

    /// Looks in memory, then in the sets waiting for the file, then in the file. A live
    /// memory entry wins; an expired one is only used (when `allowStale`) if the file has
    /// nothing newer. A file hit is copied into memory unless a write raced it.
    func find(_ key: String, now: Int64, allowStale: Bool) throws -> Found? {
        var stale: Found?
        if let entry = runtime.memory?.get(key, now: now, counting: true), let value = entry.value(as: Value.self) {
            let found = Found(value: value, writtenAt: entry.writtenAt, expiresAt: entry.expiresAt, fromFile: false)
            if !entry.isExpired(at: now) { return found }
            stale = found
        }
        if writesBehind, let write = runtime.pending.value(for: key), !write.attributes.isPurgeable(at: now),
            let value = decoded(write.value, key: key)
        {
            let found = Found(
                value: value, writtenAt: write.writtenAt, expiresAt: write.attributes.expiresAt, fromFile: false)
            return write.attributes.isExpired(at: now) && !allowStale ? nil : found
        }
        guard record.policy.tiers.usesDisk else { return allowStale ? stale : nil }
        let epoch = runtime.memory?.epoch ?? 0
        let entry = try backend.lookup(key, in: runtime)
        guard let entry, entry.version == record.policy.version else { return allowStale ? stale : nil }
        backend.recordRead(entry, now: now)
        guard !entry.isPurgeable(at: now), allowStale || !entry.isExpired(at: now),
            let value = decoded(entry.value, key: key)
        else { return allowStale ? stale : nil }
        let times = record.policy.memoryCopyTimes(expiresAt: entry.expiresAt, staleUntil: entry.staleUntil, now: now)
        runtime.memory?.promote(
            TypedMemoryEntry(
                value, key: key, writtenAt: entry.createdAt, expiresAt: times.expiresAt,
                staleUntil: times.staleUntil, size: entry.value.count + key.utf8.count, tags: entry.tags),
            ifUnchangedSince: epoch)
        return Found(value: value, writtenAt: entry.createdAt, expiresAt: entry.expiresAt, fromFile: true)
    }

    // MARK: Private

    /// Whether this handle's sets wait in the write-behind queue (only then is it worth a look).
    private var writesBehind: Bool { record.policy.tiers == .memoryAndDisk && record.policy.writeBehind != nil }

    /// The key's canonical text (see ``CanonicalKey/normalized(_:)``); strings and integers
    /// skip the generic conversion.
    @inlinable func canonicalKey(_ key: Key) throws -> String {
        if let string = key as? String { return CanonicalKey.normalized(string) }
        return try keyText(key)
    }

    /// The key's canonical text, except that a string is not normalized yet: enough for a
    /// memory lookup, whose dictionary hashes and compares strings by canonical equivalence
    /// (a hit never pays for the normalization).
    @inlinable func keyText(_ key: Key) throws -> String {
        if let string = key as? String { return string }
        if let integer = key as? Int { return String(integer) }
        return try CanonicalKey.make(key, namespace: namespace)
    }

    private func encoded(_ value: Value, key: String) throws -> Data {
        do {
            return try coder.encode(value)
        } catch {
            throw CacheError.encodingFailed(namespace: namespace, key: key, reason: "\(error)")
        }
    }

    func decoded(_ data: Data, key: String) -> Value? {
        do {
            return try coder.decode(data)
        } catch {
            backend.noteDecodeFailure(namespace: namespace, key: key, error: error)
            return nil
        }
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
