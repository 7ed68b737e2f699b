import CacheCore
import Foundation

/// The servers a keyspace lives on, as the console's topology view shows them: every node
/// with its role, slots, keys, memory and ops/s (a node that is down listed, its figures
/// unknown), and the node each CacheDeck namespace lives on.
package struct RedisTopology: Sendable, Hashable, Codable {
    /// Whether the keyspace is a Redis Cluster (else one server, whose node holds every key).
    package var isCluster: Bool
    /// The nodes: primaries first, by address.
    package var nodes: [RedisClusterNode]
    /// The key prefix of the RedisStore whose namespaces are listed.
    package var storePrefix: String
    /// The namespaces of the RedisStore under ``storePrefix``, by name.
    package var namespaces: [Placement]
    /// Why the namespaces could not be read (`nil` when they were).
    package var namespaceFailure: String?

    /// Where one namespace lives.
    package struct Placement: Sendable, Hashable, Codable {
        /// The namespace's name.
        package var name: String
        /// The node serving its record (the namespace hash), `host:port`; `nil` when no node
        /// serves that slot.
        package var node: String?
        /// The slot of its record (`nil` on one server).
        package var slot: Int?
        /// Whether its entries share its record's slot (a hash tag in their names); else they
        /// spread over every primary by key.
        package var entriesShareSlot: Bool
    }

    /// The most namespaces listed.
    static let maxNamespaces = 10_000
}

extension RedisKeyspace {
    /// The nodes and where the namespaces of the RedisStore under `storePrefix` live (read
    /// only: `INFO`, `DBSIZE`, `CLUSTER NODES`, `SSCAN` of the namespace set).
    package func topology(storePrefix: String = RedisStoreOptions.defaultPrefix) throws -> RedisTopology {
        let keys = RedisKeys(prefix: storePrefix)
        var topology = RedisTopology(
            isCluster: false, nodes: [], storePrefix: storePrefix, namespaces: [], namespaceFailure: nil)
        switch servers {
        case .single(let pool):
            let replies = try pool.withConnection { try $0.pipeline([["INFO"], ["DBSIZE"]]) }
            let fields = RedisServerInfo.parse(replies[0].string ?? "")
            topology.nodes = [
                RedisClusterNode(
                    address: "\(pool.endpoint.host):\(pool.endpoint.port)", id: fields["run_id"] ?? "",
                    role: fields["role"] == "slave" ? "replica" : "primary", primaryID: nil, slots: 0, isDown: false,
                    keys: replies[1].integer.map { Int(clamping: $0) }, usedMemory: fields["used_memory"].flatMap { Int($0) },
                    opsPerSecond: fields["instantaneous_ops_per_sec"].flatMap { Int($0) })
            ]
        case .cluster:
            topology.isCluster = true
            topology.nodes = try clusterNodes() ?? []
        }
        do {
            let names = try servers.withConnection(forKey: Data(keys.namespaces.utf8)) { connection in
                try RedisNamespace.names(keys: keys, on: connection)
            }
            topology.namespaces = names.sorted().prefix(RedisTopology.maxNamespaces).map { name in
                placement(of: name, keys: keys, single: topology.nodes.first?.address)
            }
        } catch {
            topology.namespaceFailure = RedisError.oneLine("\(error)")
        }
        return topology
    }

    /// Where namespace `name` lives: on one server, there; on a cluster, on the primary
    /// serving its record's slot.
    private func placement(of name: String, keys: RedisKeys, single: String?) -> RedisTopology.Placement {
        let record = Data(keys.namespace(name).utf8)
        let entries = Data(keys.entries(name).utf8)
        guard case .cluster(let router) = servers else {
            return .init(name: name, node: single, slot: nil, entriesShareSlot: true)
        }
        let slot = ClusterSlot.of(record)
        let tagged = ClusterSlot.hashed(entries).count < entries.count && ClusterSlot.of(entries) == slot
        return .init(
            name: name, node: router.topology.owner(of: slot)?.description, slot: slot, entriesShareSlot: tagged)
    }
}
