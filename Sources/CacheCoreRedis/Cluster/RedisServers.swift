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

    /// Runs `body` on a connection to the node serving `key` (its slot's primary), following
    /// what a cluster answers while it changes: after `MOVED` the map is refreshed and `body`
    /// runs again at the new owner, after `ASK` it runs once more on the migration's target
    /// after `ASKING`, after `TRYAGAIN`/`CLUSTERDOWN` or a refused connection (nothing was sent;
    /// a failover may be promoting a replica) it runs again after a refresh, at most
    /// ``ClusterRouter/maxRedirections`` times. A lost connection is not retried (nobody
    /// knows whether the server applied the command): the map is refreshed for the next call
    /// and the error thrown. `body` should send one command (or commands on `key`'s slot only)
    /// for an `ASK` to apply to it.
    func withConnection<T>(forKey key: some Collection<UInt8>, _ body: (RedisConnection) throws -> T) throws -> T {
        switch self {
        case .single(let pool): return try pool.withConnection(body)
        case .cluster(let router): return try Self.routed(router, slot: ClusterSlot.of(key), body)
        }
    }

    /// `withConnection(forKey:_:)` on a string key (its UTF-8 bytes, not copied).
    func withConnection<T>(forKey key: String, _ body: (RedisConnection) throws -> T) throws -> T {
        try withConnection(forKey: key.utf8, body)
    }

    /// The replies to `commands`, each on the key it names (`key`), in order: one pipeline on
    /// one server; on a cluster one pipeline per primary owning the keys, and each command a
    /// changing cluster redirected sent again on its own, routed as `withConnection(forKey:_:)`.
    /// Error replies are returned in place.
    func pipeline(_ commands: [(key: Data, command: [RedisArgument])]) throws -> [RedisReply] {
        guard !commands.isEmpty else { return [] }
        guard case .cluster(let router) = self else {
            return try primaries[0].withConnection { try $0.pipeline(commands.map(\.command)) }
        }
        let topology = router.topology
        var replies = [RedisReply](repeating: .null, count: commands.count)
        var byOwner: [ClusterAddress: [Int]] = [:]
        var unowned: [Int] = []
        for (index, item) in commands.enumerated() {
            if let owner = topology.owner(of: ClusterSlot.of(item.key)) {
                byOwner[owner, default: []].append(index)
            } else {
                unowned.append(index)
            }
        }
        for (owner, indices) in byOwner {
            let answered = try router.pool(owner).withConnection { connection in
                try connection.pipeline(indices.map { commands[$0].command })
            }
            for (index, reply) in zip(indices, answered) {
                if Redirection([reply]) != nil { unowned.append(index) } else { replies[index] = reply }
            }
        }
        for index in unowned {
            replies[index] = try router.pipeline(slot: ClusterSlot.of(commands[index].key), [commands[index].command])[0]
        }
        return replies
    }

    /// The server's version, role, memory and exact key count (`DBSIZE`); on a cluster, the
    /// memory and keys of the primaries that answer, summed (the role says how many did not).
    func info() throws -> RedisServerInfo {
        guard case .cluster = self else {
            return try primaries[0].withConnection { connection in try RedisServerInfo.read(on: connection) }
        }
        let primaries = primaries
        var failure: (any Error)?
        let nodes = primaries.compactMap { pool -> RedisServerInfo? in
            do {
                return try pool.withConnection { connection in try RedisServerInfo.read(on: connection) }
            } catch {
                failure = error
                return nil
            }
        }
        guard var total = nodes.first else { throw failure ?? RedisError.server("no primary answered") }
        let down = primaries.count - nodes.count
        total.endpoint = description
        total.role = "cluster of \(primaries.count) primaries" + (down > 0 ? ", \(down) not answering (not counted)" : "")
        total.usedMemory = nodes.reduce(0) { $0.addingClamped($1.usedMemory) }
        total.maxMemory = nodes.reduce(0) { $0.addingClamped($1.maxMemory) }
        total.keyCount = nodes.reduce(0) { $0.addingClamped($1.keyCount) }
        return total
    }

    /// Closes the idle connections of every node.
    func drain() {
        switch self {
        case .single(let pool): pool.drain()
        case .cluster(let router): router.drain()
        }
    }

    private static func routed<T>(_ router: ClusterRouter, slot: Int, _ body: (RedisConnection) throws -> T) throws -> T {
        var asking: ClusterAddress?
        for attempt in 0...ClusterRouter.maxRedirections {
            do {
                if let target = asking {
                    return try router.pool(target).withConnection { connection in
                        _ = try connection.command(["ASKING"])
                        return try body(connection)
                    }
                }
                return try router.withConnection(slot: slot, body)
            } catch let error as RedisError {
                guard attempt < ClusterRouter.maxRedirections else {
                    if case .server(let message) = error, Redirection([.error(message)]) != nil { break }
                    throw error
                }
                switch error {
                case .server(let message):
                    switch Redirection([.error(message)]) {
                    case .moved:
                        try router.refresh()
                        asking = nil
                    case .ask(let address):
                        asking = address
                    case .retry:
                        router.pause(attempt: attempt)
                        try? router.refresh()
                        asking = nil
                    case nil:
                        throw error
                    }
                case .cannotConnect:
                    router.pause(attempt: attempt)
                    try router.refresh()
                    asking = nil
                case .connectionLost:
                    try? router.refresh()
                    throw error
                default:
                    throw error
                }
            }
        }
        throw RedisError.server("slot \(slot) is still moving after \(ClusterRouter.maxRedirections) redirections")
    }
}
