import CacheCore
import Foundation

/// The servers a keyspace lives on: one Redis server, or the primaries of a Redis Cluster.
/// What walks a keyspace walks each primary; what reads a key asks the node serving it.
enum RedisServers: Sendable {
    /// One server.
    case single(RedisPool)
    /// A cluster, through its router.
    case cluster(ClusterRouter)

    /// Connects to the server or cluster `url` names and logs in, so a bad URL, a refused
    /// connection or a wrong password fails here with one line.
    init(url: String, environment: [String: String], poolSize: Int, timeout: Duration) throws {
        if ClusterURL.isCluster(url) {
            self = .cluster(
                try ClusterRouter(
                    seeds: try ClusterURL.seeds(url, environment: environment), poolSize: poolSize, timeout: timeout))
        } else {
            let pool = RedisPool(endpoint: try RedisEndpoint(url: url, environment: environment), size: poolSize, timeout: timeout)
            try pool.withConnection { _ in }
            self = .single(pool)
        }
    }

    /// The URL without its password.
    var redactedURL: String {
        switch self {
        case .single(let pool): pool.endpoint.redactedURL
        case .cluster(let router): ClusterURL.redacted(router.seeds)
        }
    }

    /// `host:port/db` of the server, or the cluster's seeds.
    var description: String {
        switch self {
        case .single(let pool): pool.endpoint.description
        case .cluster(let router): router.seeds.map(\.description).joined(separator: ",")
        }
    }

    /// The pools of the primaries: the server itself, or each primary of the cluster.
    var primaries: [RedisPool] {
        switch self {
        case .single(let pool): [pool]
        case .cluster(let router): router.primaries.map(router.pool)
        }
    }

    /// Changes when the cluster's slot map does (always 0 for one server).
    var epoch: Int {
        switch self {
        case .single: 0
        case .cluster(let router): router.epoch
        }
    }

    /// Runs `body` on a connection to the node serving `key`; after a `MOVED` (the slot moved
    /// since the map was read) the map is refreshed and `body` runs once more there.
    func withConnection<T>(forKey key: Data, _ body: (RedisConnection) throws -> T) throws -> T {
        switch self {
        case .single(let pool):
            return try pool.withConnection(body)
        case .cluster(let router):
            let slot = ClusterSlot.of(key)
            do {
                return try router.withConnection(slot: slot, body)
            } catch RedisError.server(let message) where message.hasPrefix("MOVED ") || message.hasPrefix("ASK ") {
                try router.refresh()
                return try router.withConnection(slot: slot, body)
            }
        }
    }
}
