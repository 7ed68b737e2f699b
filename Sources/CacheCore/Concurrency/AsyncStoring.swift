/// The `async` face of any ``CacheStoring`` (a cache file or a Redis server): its calls that
/// may touch the store, run on a ``BlockingIOPool``. Handles come from the store as usual
/// (opening one is a lookup) and have their own face, ``Cache/async``.
///
/// ```swift
/// let store: any CacheStoring = try CacheStore(path: path)
/// let guests = try store.cache("guests", key: String.self, value: String.self).async
/// try await guests.set("Ada", for: "g1", tags: ["table:3"])
/// try await store.async.invalidate(.tag("table:3", namespace: "guests"))
/// try await store.async.close()
/// ```
public struct AsyncStoring: Sendable {
    /// The store these calls run.
    public let store: any CacheStoring
    /// Where they run.
    public let pool: BlockingIOPool

    /// Async calls on `store`, run on `pool`.
    public init(_ store: any CacheStoring, pool: BlockingIOPool = .shared) {
        self.store = store
        self.pool = pool
    }

    /// ``CacheStoring/invalidate(_:)-(InvalidationSelector)``.
    @discardableResult
    public func invalidate(_ selector: InvalidationSelector) async throws -> InvalidationResult {
        let store = store
        return try await pool.run { try store.invalidate(selector) }
    }

    /// ``CacheStoring/invalidate(_:)-([InvalidationSelector])``.
    @discardableResult
    public func invalidate(_ selectors: [InvalidationSelector]) async throws -> InvalidationResult {
        let store = store
        return try await pool.run { try store.invalidate(selectors) }
    }

    /// ``CacheStoring/invalidate(event:parameters:)``.
    @discardableResult
    public func invalidate(event name: String, parameters: [String: String] = [:]) async throws
        -> InvalidationResult
    {
        let store = store
        return try await pool.run { try store.invalidate(event: name, parameters: parameters) }
    }

    /// ``CacheStoring/flush()``.
    public func flush() async throws {
        let store = store
        try await pool.run { try store.flush() }
    }

    /// ``CacheStoring/close()``: flushes and closes; closing twice does nothing.
    public func close() async throws {
        let store = store
        try await pool.run { try store.close() }
    }
}

extension CacheStoring {
    /// This store's async calls on the shared ``BlockingIOPool`` (a ``CacheStore`` has more:
    /// ``CacheStore/async``).
    public var async: AsyncStoring { AsyncStoring(self) }
}
