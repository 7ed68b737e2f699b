import CacheCore
import Foundation

/// Read-only inspection of the data a ``RedisStore`` wrote under a prefix (docs/REDIS.md):
/// its namespaces, entry counts and expiries counted by a bounded ``RedisEntryCensus``, pages
/// of entries by `SCAN` cursor, one entry in full, and every host's counters and heartbeats.
///
/// On a Redis Cluster (`redis+cluster://`) each namespace is read from the node serving its
/// slot, the store-wide keys from the node serving `{%store}`, and the census walks every
/// primary with its own cursor.
///
/// It sends read commands only (`EXISTS`, `SSCAN`, `HMGET`, `HGETALL`, `HSTRLEN`, `SCAN`,
/// `ZRANGE`, `INFO`, `DBSIZE`), never `KEYS` nor a script, so it works with an ACL user
/// allowed `+@read +@connection +info` and never changes the data.
public final class RedisStoreInspector: Sendable {
    /// `host:port/db`, never the password (a cluster: its seeds).
    public let endpoint: String
    /// The URL without its password.
    public let redactedURL: String
    /// What every key of the store starts with.
    public var prefix: String { keys.prefix }
    let keys: RedisKeys
    let servers: RedisServers

    /// Connects to the database `url` names (a server, or a cluster's nodes:
    /// `redis+cluster://host:port,host:port/`) and logs in (one line on failure, as
    /// `RedisKeyspace(url:separator:environment:timeout:)`); `prefix` is the store's
    /// ``RedisStoreOptions/prefix``.
    public init(
        url: String, prefix: String = RedisStoreOptions.defaultPrefix,
        environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Duration = .seconds(5)
    ) throws {
        do {
            servers = try RedisServers(url: url, environment: environment, poolSize: 2, timeout: timeout)
        } catch let error as RedisError {
            if case .badURL = error { throw CacheError.cannotOpen(path: "Redis URL", reason: error.description) }
            throw CacheError(error, endpoint: RedisEndpoint.redacted(url))
        }
        endpoint = servers.description
        redactedURL = servers.redactedURL
        keys = RedisKeys(prefix: prefix, isClustered: ClusterURL.isCluster(url))
    }

    /// Whether the database holds a store under the prefix (its namespace set exists).
    public func holdsStore() throws -> Bool {
        try read { connection in try connection.command(["EXISTS", RedisArgument(keys.namespaces)]).integer == 1 }
    }

    /// The server's version, role, memory and key count.
    public func server() throws -> RedisServerInfo {
        try RedisStore.mapping(endpoint) { try servers.info() }
    }

    /// Every namespace in the namespace set with its hash, by name (`SSCAN` in batches).
    public func namespaces() throws -> [RedisNamespace] {
        try RedisStore.mapping(endpoint) { try RedisNamespace.readAll(keys: keys, servers: servers) }
    }

    /// A new census of the entries, `batchSize` keys a `SCAN` call, leaving each server alone
    /// `idleShare` of the time; nothing is read until it is stepped. The defaults are the
    /// keyspace scan's (`RedisKeyspace.scan(prefix:batchSize:idleShare:)`): other clients'
    /// latency stays near what it is without the census (see docs/performance.md).
    public func census(batchSize: Int = 40, idleShare: Double = 0.75) -> RedisEntryCensus {
        RedisEntryCensus(inspector: self, batchSize: batchSize, pacing: ScanPacing(idleShare: idleShare))
    }

    /// The clients whose heartbeat hash is still on the server (hosts, programs, heartbeats),
    /// oldest first; clients whose hash expired are left out (and left on the server).
    public func clients() throws -> [CacheClient] {
        let now = Self.now()
        return try read { connection in try RedisTelemetryReader.clients(keys: keys, now: now, on: connection).clients }
    }

    /// Each client's counters since it opened, per namespace, by client id (clients whose
    /// counters expired are absent).
    public func statisticsByClient() throws -> [Int64: StoreStatistics] {
        var byClient: [Int64: StoreStatistics] = [:]
        for client in try clients() {
            let counted = try read { connection in
                try RedisTelemetryReader.statistics(keys: keys, client: client.id, on: connection)
            }
            byClient[client.id] = StoreStatistics(namespaces: counted)
        }
        return byClient
    }

    /// Every client's counters summed per namespace, as ``RedisStore/sharedStatistics()``.
    public func sharedStatistics() throws -> StoreStatistics {
        var namespaces: [String: CacheStatistics] = [:]
        for statistics in try statisticsByClient().values {
            for (name, counted) in statistics.namespaces { namespaces[name, default: .zero] += counted }
        }
        return StoreStatistics(namespaces: namespaces)
    }

    /// Runs `body` on a connection to the node holding the store-wide keys, turning Redis
    /// failures into `CacheError`s.
    func read<T>(_ body: (RedisConnection) throws -> T) throws -> T {
        try read(key: keys.namespaces, body)
    }

    /// Runs `body` on a connection to the node serving `key` (namespace `name`'s keys for
    /// `keys.namespace(name)`), turning Redis failures into `CacheError`s.
    func read<T>(key: String, _ body: (RedisConnection) throws -> T) throws -> T {
        try RedisStore.mapping(endpoint) { try servers.withConnection(forKey: key, body) }
    }

    /// The wall clock in milliseconds since 1970 (the inspector has no store clock).
    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}
