import CacheCore
import Foundation

/// Which node serves each slot of a Redis Cluster, from `CLUSTER SLOTS`: the primaries (in
/// the order the reply named them) with their slot ranges and replicas. The reply is
/// untrusted: slots out of range or given twice, ports out of range and overlong host names
/// are refused; replicas beyond ``maxReplicas`` for a primary are not kept.
struct ClusterTopology: Sendable, Equatable {
    /// One primary and what it serves.
    struct Node: Sendable, Hashable {
        /// `host:port` of the primary.
        var address: ClusterAddress
        /// Its node id (40 hex digits; empty when the reply had none).
        var id: String
        /// The slot ranges it serves.
        var slots: [ClosedRange<Int>]
        /// Its replicas.
        var replicas: [ClusterAddress]

        /// How many slots it serves.
        var slotCount: Int { slots.reduce(0) { $0 + $1.count } }
    }

    /// The primaries.
    private(set) var nodes: [Node] = []
    /// The index in ``nodes`` of each slot's primary; -1 when no node serves it.
    private var owners = [Int16](repeating: -1, count: ClusterSlot.count)

    /// Whether a route differs from `other`'s: a primary, its id or its slots (replicas
    /// joining or leaving, as in a cluster just made, change none).
    func movesSlots(from other: ClusterTopology) -> Bool {
        nodes.map { [$0.address.description, $0.id] } != other.nodes.map { [$0.address.description, $0.id] }
            || owners != other.owners
    }

    /// The primary serving `slot`, if any.
    func owner(of slot: Int) -> ClusterAddress? {
        guard (0..<ClusterSlot.count).contains(slot) else { return nil }
        let index = Int(owners[slot])
        return index >= 0 ? nodes[index].address : nil
    }

    /// Slots no node serves (the cluster is then down for their keys).
    var unservedSlots: Int { owners.reduce(0) { $0 + ($1 < 0 ? 1 : 0) } }

    /// The most replicas kept for a primary (a refresh may try each one).
    static let maxReplicas = 64

    /// Reads a `CLUSTER SLOTS` reply; `defaultHost` stands for an empty host (the node asked).
    init(slotsReply reply: RedisReply, defaultHost: String) throws(RedisError) {
        guard let ranges = reply.array else { throw .server("CLUSTER SLOTS gave no array") }
        var byAddress: [ClusterAddress: Int] = [:]
        for range in ranges {
            guard let parts = range.array, parts.count >= 3, let first = parts[0].integer, let last = parts[1].integer,
                0 <= first, first <= last, last < Int64(ClusterSlot.count)
            else { throw .server("CLUSTER SLOTS gave a slot range out of bounds") }
            let primary = try Self.address(parts[2], defaultHost: defaultHost)
            let replicas = try parts.dropFirst(3).map { reply throws(RedisError) in
                try Self.address(reply, defaultHost: defaultHost)
            }
            let index: Int
            if let known = byAddress[primary] {
                index = known
            } else {
                index = nodes.count
                byAddress[primary] = index
                let id = parts[2].array.flatMap { $0.count > 2 ? $0[2].string : nil } ?? ""
                nodes.append(Node(address: primary, id: String(id.prefix(64)), slots: [], replicas: []))
            }
            nodes[index].slots.append(Int(first)...Int(last))
            for replica in replicas
            where nodes[index].replicas.count < Self.maxReplicas && !nodes[index].replicas.contains(replica) {
                nodes[index].replicas.append(replica)
            }
            // Each slot has one owner, so the map has at most 16,384 ranges and primaries.
            for slot in Int(first)...Int(last) {
                guard owners[slot] < 0 else { throw .server("CLUSTER SLOTS gave slot \(slot) to two ranges") }
                owners[slot] = Int16(index)
            }
        }
    }

    /// A node's `[host, port, id, …]` entry.
    private static func address(_ reply: RedisReply, defaultHost: String) throws(RedisError) -> ClusterAddress {
        guard let parts = reply.array, parts.count >= 2, let host = parts[0].string, host.utf8.count <= 255,
            let port = parts[1].integer, (1...65535).contains(port)
        else { throw .server("CLUSTER SLOTS named a node without a valid host and port") }
        return ClusterAddress(host: host.isEmpty || host == "?" ? defaultHost : host, port: Int(port))
    }
}

/// A node of a cluster: `host:port`.
struct ClusterAddress: Sendable, Hashable, CustomStringConvertible {
    var host: String
    var port: Int

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Parses `host:port` as a `MOVED`/`ASK` redirection names it; `nil` if malformed.
    init?(redirection text: Substring) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, host.utf8.count <= 255 else { return nil }
        self.host = host
        self.port = port
    }

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }
}
