/// The `async` face of a ``Cache``: the same calls, for actors and async code.
///
/// Memory-tier hits are answered at once on the calling task (they never touch the disk);
/// everything that may touch the file runs on a ``BlockingIOPool`` thread, so no cooperative
/// thread waits for SQLite. Get one with ``Cache/async`` or ``Cache/async(on:)``.
///
/// ```swift
/// let parts = try store.cache("parts", key: String.self, value: Part.self, policy: .hybrid).async
/// try await parts.set(brick, for: "3001")
/// let part = try await parts.get("3001")
/// ```
///
/// Use the synchronous ``Cache`` from threads you own and where a call's few microseconds
/// matter more than the pool; use this from async code, where a blocked cooperative thread
/// holds back every other task (with two cores, two blocked reads stop the program).
public struct AsyncCache<Key: Encodable & Sendable, Value: Sendable>: Sendable {
    /// The synchronous handle these calls run.
    public let cache: Cache<Key, Value>
    /// Where calls that may touch the file run.
    public let pool: BlockingIOPool

    /// The namespace's name.
    public var namespace: String { cache.namespace }

    /// Async calls on `cache`, run on `pool`.
    public init(_ cache: Cache<Key, Value>, pool: BlockingIOPool = .shared) {
        self.cache = cache
        self.pool = pool
    }

    /// ``Cache/get(_:maxAge:)``: a memory hit at once, else on the pool.
    @inlinable
    public func get(_ key: Key, maxAge: Duration? = nil) async throws -> Value? {
        if let hit = try cache.memoryHit(key, maxAge: maxAge) { return hit }
        let cache = cache
        return try await pool.run { try cache.get(key, maxAge: maxAge) }
    }

    /// ``Cache/getStale(_:)``.
    public func getStale(_ key: Key) async throws -> StaleRead<Value>? {
        let cache = cache
        return try await pool.run { try cache.getStale(key) }
    }

    /// ``Cache/contains(_:)``.
    public func contains(_ key: Key) async throws -> Bool {
        let cache = cache
        return try await pool.run { try cache.contains(key) }
    }

    /// ``Cache/set(_:for:expiration:tags:sortValue:)``.
    public func set(
        _ value: Value, for key: Key, expiration: Expiration? = nil, tags: [String] = [], sortValue: Int64? = nil
    ) async throws {
        let cache = cache
        try await pool.run { try cache.set(value, for: key, expiration: expiration, tags: tags, sortValue: sortValue) }
    }

    /// ``Cache/set(_:expiration:)-([CacheItem])``: many values, each with its tags and sort
    /// value, in one transaction.
    public func set(_ items: [CacheItem<Key, Value>], expiration: Expiration? = nil) async throws {
        let cache = cache
        try await pool.run { try cache.set(items, expiration: expiration) }
    }

    /// ``Cache/set(_:expiration:tags:)``: many values in one transaction.
    public func set(_ items: [(key: Key, value: Value)], expiration: Expiration? = nil, tags: [String] = [])
        async throws
    {
        let cache = cache
        let batch = items.map { Pair(key: $0.key, value: $0.value) }
        try await pool.run {
            try cache.set(batch.map { (key: $0.key, value: $0.value) }, expiration: expiration, tags: tags)
        }
    }

    /// ``Cache/remove(_:)``.
    @discardableResult
    public func remove(_ key: Key) async throws -> Bool {
        let cache = cache
        return try await pool.run { try cache.remove(key) }
    }

    /// ``Cache/removeAll()``.
    @discardableResult
    public func removeAll() async throws -> Int {
        let cache = cache
        return try await pool.run { try cache.removeAll() }
    }

    /// ``Cache/invalidate(_:)``.
    @discardableResult
    public func invalidate(_ keys: [Key]) async throws -> InvalidationResult {
        let cache = cache
        return try await pool.run { try cache.invalidate(keys) }
    }

    /// ``Cache/invalidate(prefix:)``.
    @discardableResult
    public func invalidate(prefix: String) async throws -> InvalidationResult {
        let cache = cache
        return try await pool.run { try cache.invalidate(prefix: prefix) }
    }

    /// ``Cache/invalidate(tag:)``.
    @discardableResult
    public func invalidate(tag: String) async throws -> InvalidationResult {
        let cache = cache
        return try await pool.run { try cache.invalidate(tag: tag) }
    }

    /// ``Cache/count()``.
    public func count() async throws -> Int {
        let cache = cache
        return try await pool.run { try cache.count() }
    }

    /// ``Cache/hitCount(for:)``.
    public func hitCount(for key: Key) async throws -> Int? {
        let cache = cache
        return try await pool.run { try cache.hitCount(for: key) }
    }

    /// ``Cache/value(for:refreshAfter:orLoad:)``, its file calls on the pool.
    public func value(
        for key: Key, refreshAfter: Duration? = nil, orLoad loader: @escaping @Sendable (Key) async throws -> Value
    ) async throws -> Value {
        try await cache.read(key, refreshAfter: refreshAfter, orLoad: loader, on: pool).value
    }

    /// ``Cache/read(_:refreshAfter:orLoad:)``, its file calls on the pool.
    public func read(
        _ key: Key, refreshAfter: Duration? = nil, orLoad loader: @escaping @Sendable (Key) async throws -> Value
    ) async throws -> StaleRead<Value> {
        try await cache.read(key, refreshAfter: refreshAfter, orLoad: loader, on: pool)
    }

    /// ``Cache/warm(_:concurrency:using:)``, its file calls on the pool.
    public func warm(
        _ keys: [Key], concurrency: Int = 4, using loader: @escaping @Sendable (Key) async throws -> Value
    ) async -> WarmingReport {
        await cache.warm(keys.map { ($0, loader) }, concurrency: concurrency, on: pool)
    }

    /// ``Cache/value(for:tenant:refreshAfter:orLoad:)``, its file calls on the pool.
    public func value<Tenant: Sendable>(
        for key: Key, tenant: Tenant, refreshAfter: Duration? = nil,
        orLoad loader: @escaping @Sendable (Key, Tenant) async throws -> Value
    ) async throws -> Value {
        try await cache.read(key, refreshAfter: refreshAfter, orLoad: { try await loader($0, tenant) }, on: pool).value
    }

    /// ``Cache/read(_:tenant:refreshAfter:orLoad:)``, its file calls on the pool.
    public func read<Tenant: Sendable>(
        _ key: Key, tenant: Tenant, refreshAfter: Duration? = nil,
        orLoad loader: @escaping @Sendable (Key, Tenant) async throws -> Value
    ) async throws -> StaleRead<Value> {
        try await cache.read(key, refreshAfter: refreshAfter, orLoad: { try await loader($0, tenant) }, on: pool)
    }

    /// ``Cache/warm(_:concurrency:using:)-([(key:tenant:)],_,_)``, its file calls on the pool.
    public func warm<Tenant: Sendable>(
        _ keys: [(key: Key, tenant: Tenant)], concurrency: Int = 4,
        using loader: @escaping @Sendable (Key, Tenant) async throws -> Value
    ) async -> WarmingReport {
        await cache.warm(Cache.loads(keys, loader), concurrency: concurrency, on: pool)
    }

    /// A key and value crossing to the pool (a labelled tuple is not `Sendable`-checked).
    private struct Pair: Sendable {
        let key: Key
        let value: Value
    }
}

extension Cache {
    /// This handle's async calls on the shared ``BlockingIOPool``.
    public var async: AsyncCache<Key, Value> { AsyncCache(self) }

    /// This handle's async calls on `pool`.
    public func async(on pool: BlockingIOPool) -> AsyncCache<Key, Value> { AsyncCache(self, pool: pool) }

    /// The value for `key` if the memory tier holds it live (and younger than `maxAge`),
    /// counted as a memory hit; `nil` otherwise, counting nothing. Inlined like ``get(_:maxAge:)``.
    @inlinable
    func memoryHit(_ key: Key, maxAge: Duration?) throws -> Value? {
        guard record.policy.isEnabled, let memory,
            let value = memory.hit(try keyText(key), as: Value.self, maxAge: maxAge?.milliseconds, clock: clock)
        else { return nil }
        return value
    }
}

extension AsyncCache where Key: Decodable {
    /// ``Cache/entries(_:)``, on the pool.
    public func entries(_ query: CacheQuery = CacheQuery()) async throws -> CachePage<Key, Value> {
        let cache = cache
        return try await pool.run { try cache.entries(query) }
    }

    /// ``Cache/count(matching:)``, on the pool.
    public func count(matching query: CacheQuery) async throws -> Int {
        let cache = cache
        return try await pool.run { try cache.count(matching: query) }
    }
}

/// The `async` face of a ``CacheStore``'s calls that touch the file.
public struct AsyncCacheStore: Sendable {
    /// The store these calls run.
    public let store: CacheStore
    /// Where they run.
    public let pool: BlockingIOPool

    /// Async calls on `store`, run on `pool`.
    public init(_ store: CacheStore, pool: BlockingIOPool = .shared) {
        self.store = store
        self.pool = pool
    }

    /// ``CacheStore/invalidate(_:)-(InvalidationSelector)``.
    @discardableResult
    public func invalidate(_ selector: InvalidationSelector) async throws -> InvalidationResult {
        let store = store
        return try await pool.run { try store.invalidate(selector) }
    }

    /// ``CacheStore/invalidate(event:)-(InvalidationEvent)``.
    @discardableResult
    public func invalidate(event: InvalidationEvent) async throws -> InvalidationResult {
        let store = store
        return try await pool.run { try store.invalidate(event: event) }
    }

    /// ``CacheStore/clear()``.
    @discardableResult
    public func clear() async throws -> Int {
        let store = store
        return try await pool.run { try store.clear() }
    }

    /// ``CacheStore/sweepExpired(namespace:keepingStaleWindow:)``.
    @discardableResult
    public func sweepExpired(namespace: String? = nil, keepingStaleWindow: Bool = false) async throws -> Int {
        let store = store
        return try await pool.run {
            try store.sweepExpired(namespace: namespace, keepingStaleWindow: keepingStaleWindow)
        }
    }

    /// ``CacheStore/runMaintenance(_:)``.
    @discardableResult
    public func runMaintenance(_ options: MaintenanceOptions = MaintenanceOptions()) async throws -> MaintenanceReport {
        let store = store
        return try await pool.run { try store.runMaintenance(options) }
    }

    /// ``CacheStore/flush()``.
    public func flush() async throws {
        let store = store
        try await pool.run { try store.flush() }
    }

    /// ``CacheStore/synchronize()``.
    public func synchronize() async throws {
        let store = store
        try await pool.run { try store.synchronize() }
    }

    /// ``CacheStore/close()``.
    public func close() async throws {
        let store = store
        try await pool.run { try store.close() }
    }
}

extension CacheStore {
    /// This store's async calls on the shared ``BlockingIOPool``.
    public var async: AsyncCacheStore { AsyncCacheStore(self) }
}
