import CacheCore
import Foundation

/// Read-only inspection of the data a ``RedisStore`` wrote under a prefix (docs/REDIS.md):
/// its namespaces, entry counts and expiries counted by a bounded ``RedisEntryCensus``, pages
/// of entries by `SCAN` cursor, one entry in full, and every host's counters and heartbeats.
///
/// It sends read commands only (`EXISTS`, `SSCAN`, `HMGET`, `HGETALL`, `HSTRLEN`, `SCAN`,
/// `ZRANGE`, `INFO`, `DBSIZE`), never `KEYS` nor a script, so it works with an ACL user
/// allowed `+@read +@connection +info` and never changes the data.
public final class RedisStoreInspector: Sendable {
    /// `host:port/db`, never the password.
    public let endpoint: String
    /// The URL without its password.
    public let redactedURL: String
    /// What every key of the store starts with.
    public var prefix: String { keys.prefix }
    let keys: RedisKeys
    let pool: RedisPool

    /// Connects to the database `url` names and logs in (one line on failure, as
    /// `RedisKeyspace(url:separator:environment:timeout:)`); `prefix` is the store's
    /// ``RedisStoreOptions/prefix``.
    public init(
        url: String, prefix: String = RedisStoreOptions.defaultPrefix,
        environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Duration = .seconds(5)
    ) throws {
        let parsed: RedisEndpoint
        do {
            parsed = try RedisEndpoint(url: url, environment: environment)
        } catch {
            throw CacheError.cannotOpen(path: "Redis URL", reason: error.description)
        }
        endpoint = parsed.description
        redactedURL = parsed.redactedURL
        keys = RedisKeys(prefix: prefix)
        pool = RedisPool(endpoint: parsed, size: 2, timeout: timeout)
        try read { _ in }
    }

    /// Whether the database holds a store under the prefix (its namespace set exists).
    public func holdsStore() throws -> Bool {
        try read { connection in try connection.command(["EXISTS", RedisArgument(keys.namespaces)]).integer == 1 }
    }

    /// The server's version, role, memory and key count.
    public func server() throws -> RedisServerInfo {
        try read { connection in try RedisServerInfo.read(on: connection) }
    }

    /// Every namespace in the namespace set with its hash, by name (`SSCAN` in batches).
    public func namespaces() throws -> [RedisNamespace] {
        try read { connection in try RedisNamespace.readAll(keys: keys, on: connection) }
    }

    /// A new census of the entries; nothing is read until it is stepped.
    public func census(batchSize: Int = 500) -> RedisEntryCensus {
        RedisEntryCensus(inspector: self, batchSize: batchSize)
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

    /// Runs `body` on a pooled connection, turning Redis failures into `CacheError`s.
    func read<T>(_ body: (RedisConnection) throws -> T) throws -> T {
        try RedisStore.mapping(endpoint) { try pool.withConnection(body) }
    }

    /// The wall clock in milliseconds since 1970 (the inspector has no store clock).
    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}
