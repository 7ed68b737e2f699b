import CacheCore
import Foundation

/// One node of a Redis Cluster as `cachedeck info` shows it: from `CLUSTER NODES` (asked of
/// a node that answers) and the node's own `INFO` and `DBSIZE`. A node that is down is listed
/// with what the others know of it, its own figures unknown (`nil`).
public struct RedisClusterNode: Sendable, Hashable, Codable {
    /// `host:port`.
    public var address: String
    /// The node id (40 hex digits).
    public var id: String
    /// `primary` or `replica`.
    public var role: String
    /// A replica's primary (its node id).
    public var primaryID: String?
    /// Slots it serves (a primary).
    public var slots: Int
    /// The ranges of those slots, in the order `CLUSTER NODES` lists them (at most
    /// ``maxSlotRanges``).
    public var slotRanges: [ClosedRange<Int>] = []
    /// Whether the cluster sees it failing or it did not answer.
    public var isDown: Bool
    /// `DBSIZE`.
    public var keys: Int?
    /// `used_memory` in bytes.
    public var usedMemory: Int?
    /// `instantaneous_ops_per_sec`.
    public var opsPerSecond: Int?

    /// The most nodes read from a `CLUSTER NODES` reply.
    static let maxNodes = 1000
    /// The most slot ranges kept for a node (a node serving every other slot has 8,192).
    static let maxSlotRanges = 8192

    /// The nodes a `CLUSTER NODES` reply names (untrusted: lines and fields bounded, slot
    /// ranges clamped to the 16,384 slots).
    static func parse(_ text: String) -> [RedisClusterNode] {
        text.split(separator: "\n").prefix(maxNodes).compactMap { line -> RedisClusterNode? in
            let fields = line.split(separator: " ")
            guard fields.count >= 8, let at = fields[1].split(separator: "@").first, at.contains(":") else { return nil }
            let flags = fields[2].split(separator: ",")
            let isReplica = flags.contains("slave") || flags.contains("replica")
            let ranges = fields.dropFirst(8).prefix(ClusterSlot.count).compactMap { range -> ClosedRange<Int>? in
                guard !range.hasPrefix("[") else { return nil }  // a migration in progress
                let bounds = range.split(separator: "-").compactMap { Int($0) }.map { min(max($0, 0), 16_383) }
                guard let first = bounds.first else { return nil }
                let last = bounds.count > 1 ? bounds[1] : first
                return first <= last ? first...last : nil
            }
            let slots = ranges.reduce(0) { $0 + $1.count }
            return RedisClusterNode(
                address: RedisError.oneLine(String(at.prefix(300))), id: String(fields[0].prefix(64)),
                role: isReplica ? "replica" : "primary",
                primaryID: isReplica && fields[3] != "-" ? String(fields[3].prefix(64)) : nil, slots: min(slots, 16_384),
                slotRanges: Array(ranges.prefix(maxSlotRanges)),
                isDown: flags.contains("fail") || flags.contains("fail?") || fields[7] == "disconnected", keys: nil,
                usedMemory: nil, opsPerSecond: nil)
        }
    }
}

extension RedisKeyspace {
    /// Every node of the cluster (primaries first, by address), with its keys, memory and
    /// operations per second; `nil` when the keyspace is one server.
    public func clusterNodes() throws -> [RedisClusterNode]? {
        guard case .cluster(let router) = servers else { return nil }
        var listing: String?
        var lastError: any Error = RedisError.server("no cluster node answered")
        for address in router.primaries + router.topology.nodes.flatMap(\.replicas) where listing == nil {
            do {
                listing = try router.pool(address).withConnection { try $0.command(["CLUSTER", "NODES"]).string }
            } catch {
                lastError = error
            }
        }
        guard let listing else { throw lastError }
        var nodes = RedisClusterNode.parse(listing)
        for index in nodes.indices where !nodes[index].isDown {
            guard let address = ClusterAddress(redirection: Substring(nodes[index].address)) else { continue }
            do {
                let replies = try router.pool(address).withConnection { try $0.pipeline([["INFO"], ["DBSIZE"]]) }
                let fields = RedisServerInfo.parse(replies[0].string ?? "")
                nodes[index].usedMemory = fields["used_memory"].flatMap { Int($0) }
                nodes[index].opsPerSecond = fields["instantaneous_ops_per_sec"].flatMap { Int($0) }
                nodes[index].keys = replies[1].integer.map { Int(clamping: $0) }
            } catch {
                nodes[index].isDown = true
            }
        }
        return nodes.sorted { ($0.role, $0.address) < ($1.role, $1.address) }
    }
}
