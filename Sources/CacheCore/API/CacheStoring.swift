import Foundation

/// What an app needs from a cache store, whichever holds the data: a SQLite file
/// (``CacheStore``) or a Redis server (`RedisStore`, in the CacheCoreRedis product). Code written against
/// `any CacheStoring` runs on either, so an app can pick its store from configuration:
///
/// ```swift
/// let store: any CacheStoring =
///     url.hasPrefix("redis://") ? try RedisStore(url: url) : try CacheStore(path: url)
/// let colors = try store.cache("colors", key: Int.self, value: String.self)
/// ```
///
/// What one store refuses still throws (on Redis: size limits and write-behind, see
/// the CacheCoreRedis documentation); what only one store has (maintenance, inspection, admin; shared statistics)
/// stays on the concrete type.
public protocol CacheStoring: AnyObject, Sendable {
    /// A handle on `namespace` whose values are stored by `coder`.
    func cache<Key: Encodable & Sendable, Coder: CacheValueCoder>(
        _ namespace: String, key: Key.Type, policy: NamespacePolicy?, coder: Coder
    ) throws -> Cache<Key, Coder.Value> where Coder.Value: Sendable

    /// The policy a handle on `namespace` gets when its caller names none: the store's
    /// configuration for the name (``StoreOptions/policies``) first, then `typeDefault` (an
    /// entity's ``CacheEntity/cachePolicy``), then ``StoreOptions/defaultPolicy``.
    func policy(for namespace: String, typeDefault: NamespacePolicy?) -> NamespacePolicy

    /// Removes what `selector` selects, and what the dependency rules add.
    @discardableResult
    func invalidate(_ selector: InvalidationSelector) throws -> InvalidationResult

    /// Removes what each selector selects (and what the rules add).
    @discardableResult
    func invalidate(_ selectors: [InvalidationSelector]) throws -> InvalidationResult

    /// Runs the domain event `name` declared in ``StoreOptions/invalidationRules``.
    @discardableResult
    func invalidate(event name: String, parameters: [String: String]) throws -> InvalidationResult

    /// What this store counted since it opened, per namespace.
    func statistics() -> StoreStatistics

    /// Writes what the store still holds back (a file's write-behind sets and recorded reads;
    /// a Redis store's counters: its sets are on the server already).
    func flush() throws

    /// Flushes and closes the store; closing twice does nothing.
    func close() throws
}

extension CacheStoring {
    /// A handle on `namespace` storing `Value` as JSON under `Key`'s canonical text (see
    /// ``cache(_:key:policy:coder:)`` for `policy`).
    public func cache<Key: Encodable & Sendable, Value: Codable & Sendable>(
        _ namespace: String, key: Key.Type = Key.self, value: Value.Type = Value.self, policy: NamespacePolicy? = nil
    ) throws -> Cache<Key, Value> {
        try cache(namespace, key: key, policy: policy, coder: JSONValueCoder<Value>())
    }

    /// A handle on `namespace` whose values are stored by `coder`, with the configured or default policy.
    public func cache<Key: Encodable & Sendable, Coder: CacheValueCoder>(
        _ namespace: String, key: Key.Type = Key.self, coder: Coder
    ) throws -> Cache<Key, Coder.Value> where Coder.Value: Sendable {
        try cache(namespace, key: key, policy: nil, coder: coder)
    }

    /// A handle on `namespace` that stores `Data` values as raw bytes.
    public func dataCache<Key: Encodable & Sendable>(
        _ namespace: String, key: Key.Type = Key.self, policy: NamespacePolicy? = nil
    ) throws -> Cache<Key, Data> {
        try cache(namespace, key: key, policy: policy, coder: RawDataCoder())
    }

    /// The handle for an entity type: its ``CacheEntity/cacheNamespace`` and keys. Its policy
    /// is the first of: `policy`, the store's configuration for the namespace
    /// (``StoreOptions/policies``), the type's ``CacheEntity/cachePolicy``, the store's
    /// ``StoreOptions/defaultPolicy`` (configuration beats a type's default).
    public func entities<Entity: CacheEntity>(_ type: Entity.Type, policy: NamespacePolicy? = nil) throws -> Cache<
        Entity.CacheKey, Entity
    > {
        let resolved = policy ?? self.policy(for: Entity.cacheNamespace, typeDefault: Entity.cachePolicy)
        return try cache(Entity.cacheNamespace, key: Entity.CacheKey.self, value: Entity.self, policy: resolved)
    }

    /// Runs the domain event `name`, which takes no parameters.
    @discardableResult
    public func invalidate(event name: String) throws -> InvalidationResult {
        try invalidate(event: name, parameters: [:])
    }
}

extension CacheStore: CacheStoring {
    public func policy(for namespace: String, typeDefault: NamespacePolicy?) -> NamespacePolicy {
        options.policy(for: namespace, typeDefault: typeDefault)
    }
}
