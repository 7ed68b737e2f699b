import CacheCore
import Foundation

/// Plain Redis connections for this package's benchmarks (`cachedeck-bench redis`): the
/// floor a ``RedisStore`` is measured against, through the same client layer. On one server,
/// one connection; on a Redis Cluster (`redis+cluster://`), one connection per primary and the
/// slot map read once, each command sent straight to the primary of its key's slot (no
/// redirections followed: the cluster must stay still while it is used). Not public API.
package final class RedisRawClient {
    /// The server's connection, or one per primary of a cluster.
    private let connections: [RedisConnection]
    /// On a cluster, the index in `connections` of each slot's primary (empty on one server).
    private let owners: [Int]

    /// Connects to `url` (as ``RedisStore/init(url:options:redis:)`` parses it).
    package init(url: String) throws {
        do {
            if ClusterURL.isCluster(url) {
                (connections, owners) = try Self.connectToPrimaries(seed: ClusterURL.seeds(url, environment: [:])[0])
            } else {
                let endpoint = try RedisEndpoint(url: url, environment: [:])
                connections = [try RedisConnection(endpoint: endpoint, timeout: .seconds(5))]
                owners = []
            }
        } catch {
            throw CacheError.unreachable(endpoint: RedisEndpoint.redacted(url), reason: "\(error)")
        }
    }

    /// How many nodes commands go to: 1, or the cluster's primaries.
    package var nodeCount: Int { connections.count }

    /// The index of the node serving `key` (0 on one server).
    package func node(ofKey key: String) -> Int { owners.isEmpty ? 0 : owners[ClusterSlot.of(key.utf8)] }

    /// `host:port` of node `index`.
    package func address(ofNode index: Int) -> String { connections[index].endpoint.description }

    /// Runs one command of text and byte arguments on the node serving its first argument
    /// after the command name (its key); returns an integer reply, the length of a bulk
    /// reply, or the elements of an array reply (else 0).
    @discardableResult
    package func command(_ arguments: [RedisRawArgument]) throws -> Int {
        let reply = try connection(for: arguments).command(arguments.map(\.argument))
        return Self.size(reply)
    }

    /// Runs a command without a key (`FLUSHDB`, `DBSIZE`) on every node; returns the sum of
    /// what ``command(_:)`` would return from each.
    @discardableResult
    package func onEveryNode(_ arguments: [RedisRawArgument]) throws -> Int {
        try connections.reduce(0) { $0 + Self.size(try $1.command(arguments.map(\.argument))) }
    }

    /// Sends `commands` in one round trip per node serving their keys (a pipeline each);
    /// throws if any answered an error.
    package func pipeline(_ commands: [[RedisRawArgument]]) throws {
        var byNode = [[[RedisArgument]]](repeating: [], count: connections.count)
        for arguments in commands { byNode[index(for: arguments)].append(arguments.map(\.argument)) }
        for (node, batch) in byNode.enumerated() where !batch.isEmpty {
            for reply in try connections[node].pipeline(batch) {
                if case .error(let message) = reply {
                    throw CacheError.serverError(endpoint: "\(connections[node].endpoint)", message: message)
                }
            }
        }
    }

    /// `SCAN`s the keys matching `pattern` (a glob) and `UNLINK`s them in batches; returns how
    /// many. On a cluster the pattern's hash tag names the node walked (an `UNLINK` of several
    /// keys needs them on one slot); a pattern without one walks every primary.
    package func unlinkMatching(_ pattern: String, batch: Int = 1000) throws -> Int {
        let walked =
            owners.isEmpty || ClusterSlot.hashed(Array(pattern.utf8)).count == pattern.utf8.count
            ? connections : [connections[node(ofKey: pattern)]]
        var removed = 0
        for connection in walked {
            try connection.scanAll(matching: pattern, count: batch) { keys in
                removed += Int(try connection.command(["UNLINK"] + keys.map { RedisArgument($0) }).integer ?? 0)
            }
        }
        return removed
    }

    // MARK: Private

    private func connection(for arguments: [RedisRawArgument]) -> RedisConnection {
        connections[index(for: arguments)]
    }

    /// The node serving the command's key (its second argument).
    private func index(for arguments: [RedisRawArgument]) -> Int {
        guard !owners.isEmpty, arguments.count > 1 else { return 0 }
        return owners[ClusterSlot.of(arguments[1].argument.bytes)]
    }

    /// One connection to each primary of the cluster `seed` belongs to, and the index of each
    /// slot's primary among them.
    private static func connectToPrimaries(seed: RedisEndpoint) throws -> ([RedisConnection], [Int]) {
        let first = try RedisConnection(endpoint: seed, timeout: .seconds(5))
        let topology = try ClusterTopology(slotsReply: first.command(["CLUSTER", "SLOTS"]), defaultHost: seed.host)
        guard !topology.nodes.isEmpty, topology.unservedSlots == 0 else {
            throw RedisError.server("\(topology.unservedSlots) slots are unserved")
        }
        let connections = try topology.nodes.map { node in
            var endpoint = seed
            endpoint.host = node.address.host
            endpoint.port = node.address.port
            return try RedisConnection(endpoint: endpoint, timeout: .seconds(5))
        }
        let indexes = Dictionary(uniqueKeysWithValues: topology.nodes.enumerated().map { ($1.address, $0) })
        let owners = (0..<ClusterSlot.count).map { slot in topology.owner(of: slot).flatMap { indexes[$0] } ?? 0 }
        return (connections, owners)
    }

    private static func size(_ reply: RedisReply) -> Int {
        switch reply {
        case .integer(let value): Int(value)
        case .bulk(let data): data.count
        case .array(let elements): elements.count
        default: 0
        }
    }
}

/// A text or byte argument of ``RedisRawClient/command(_:)``.
package struct RedisRawArgument: ExpressibleByStringLiteral {
    let argument: RedisArgument

    package init(_ text: String) { argument = RedisArgument(text) }
    package init(_ data: Data) { argument = RedisArgument(data) }
    package init(stringLiteral text: String) { self.init(text) }
}
