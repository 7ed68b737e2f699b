import CacheCore
import Foundation

/// How a ``RedisStore`` talks to its server; the cache itself is configured by
/// `StoreOptions`, as for a `CacheStore`.
public struct RedisStoreOptions: Sendable {
    /// What every key of the store starts with (see docs/REDIS.md for the layout). Stores
    /// with different prefixes on one server share nothing.
    public var prefix: String
    /// The most idle connections kept for handles' calls.
    public var poolSize: Int
    /// How long a connect, a command or a reply may take before `CacheError/unreachable(endpoint:reason:)`.
    public var timeout: Duration
    /// How long memory tiers keep serving what they hold after the invalidation connection is
    /// lost while the server cannot be reached (nothing can change a server nobody reaches,
    /// but a network split may hide other hosts' changes). Once the connection is back, or
    /// this long after it was lost, every memory tier is flushed. `.zero` flushes at once.
    public var offlineGrace: Duration
    /// Where `REDISCLI_AUTH` is read from when the URL has no password.
    public var environment: [String: String]

    /// The prefix stores use unless told otherwise: `cachedeck:`.
    public static let defaultPrefix = "cachedeck:"

    /// Creates options; the defaults suit an app on a nearby server.
    public init(
        prefix: String = Self.defaultPrefix,
        poolSize: Int = 4,
        timeout: Duration = .seconds(2),
        offlineGrace: Duration = .seconds(30),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.prefix = prefix
        self.poolSize = poolSize
        self.timeout = timeout
        self.offlineGrace = offlineGrace
        self.environment = environment
    }
}
