import Foundation

/// A private Redis Cluster for one test suite: `primaries` primaries with `replicasEach`
/// replicas each, `redis-server --cluster-enabled yes` on free loopback ports, joined by
/// `redis-cli --cluster create`; stopped by ``stop()`` or when released.
public final class RedisCluster: @unchecked Sendable {
    /// Every node, in the order `redis-cli --cluster create` got them (primaries first).
    public let nodes: [RedisServer]

    /// `redis+cluster://127.0.0.1:P1,127.0.0.1:P2,…/` naming every node.
    public var url: String { "redis+cluster://" + nodes.map { "127.0.0.1:\($0.port)" }.joined(separator: ",") + "/" }

    /// Starts the nodes, creates the cluster and waits (up to 30 s) until every node sees it ok.
    /// A creation that fails (a node that stopped answering while the others started) is
    /// tried again on new nodes, up to three times.
    public init(primaries: Int = 3, replicasEach: Int = 1) throws {
        var failure = RedisServer.Failure("redis-cli --cluster create failed")
        for _ in 0..<3 {
            let nodes = try (0..<(primaries * (1 + replicasEach))).map { _ in
                try RedisServer(arguments: [
                    "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "1000",
                    "--cluster-port", "\(try RedisServer.freePort())", "--enable-debug-command", "yes",
                ])
            }
            let created = try RedisServer.redisCLI(
                ["--cluster", "create"] + nodes.map { "127.0.0.1:\($0.port)" }
                    + ["--cluster-replicas", "\(replicasEach)", "--cluster-yes"])
            guard created.contains("[OK] All 16384 slots covered") else {
                failure = RedisServer.Failure("redis-cli --cluster create failed: \(created.suffix(300))")
                for node in nodes { node.stop() }
                continue
            }
            self.nodes = nodes
            try waitUntil(seconds: 30, "the cluster did not become ok") {
                try nodes.allSatisfy { try $0.cli("CLUSTER", "INFO").contains("cluster_state:ok") }
            }
            return
        }
        throw failure
    }

    deinit { stop() }

    /// Stops every node.
    public func stop() {
        for node in nodes { node.stop() }
    }

    /// The node whose port is `port`.
    public func node(port: Int) -> RedisServer? { nodes.first { $0.port == port } }

    /// The node id of `node` (`CLUSTER MYID`).
    public func id(of node: RedisServer) throws -> String { try node.cli("CLUSTER", "MYID") }

    /// The primaries that serve slots now, as a running node sees them (`CLUSTER NODES`).
    public func primaries() throws -> [RedisServer] {
        try live().cli("CLUSTER", "NODES").split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 9, fields[2].contains("master"), !fields[2].contains("fail"),
                let port = Int(fields[1].split(separator: ":")[1].split(separator: "@")[0])
            else { return nil }
            return node(port: port)
        }
    }

    /// The port of the primary serving `slot`, as `node` sees it (`CLUSTER SLOTS`).
    public func primaryPort(ofSlot slot: Int, askingPort: Int? = nil) throws -> Int {
        let asked = try askingPort.flatMap(node(port:)) ?? live()
        for line in try asked.cli("CLUSTER", "NODES").split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 9, fields[2].contains("master"), !fields[2].contains("fail") else { continue }
            for range in fields[8...] {
                let bounds = range.split(separator: "-").compactMap { Int($0) }
                if bounds.count == 2 && (bounds[0]...bounds[1]).contains(slot) || bounds == [slot] {
                    return Int(fields[1].split(separator: ":")[1].split(separator: "@")[0]) ?? 0
                }
            }
        }
        throw RedisServer.Failure("no primary serves slot \(slot)")
    }

    /// Moves `slots` slots from the primary on `fromPort` to the one on `toPort` with
    /// `redis-cli --cluster reshard` (a live migration, key by key).
    @discardableResult
    public func reshard(slots: Int, fromPort: Int, toPort: Int) throws -> String {
        guard let from = node(port: fromPort), let to = node(port: toPort) else {
            throw RedisServer.Failure("no node on \(fromPort) or \(toPort)")
        }
        return try RedisServer.redisCLI([
            "--cluster", "reshard", "127.0.0.1:\(fromPort)", "--cluster-from", try id(of: from), "--cluster-to",
            try id(of: to), "--cluster-slots", "\(slots)", "--cluster-yes", "--cluster-pipeline", "10",
        ])
    }

    /// Kills the primary on `port` (like a crash) and waits (up to 30 s) until a replica has
    /// taken over its slots.
    public func failOver(primaryPort port: Int, slot: Int) throws {
        guard let primary = node(port: port) else { throw RedisServer.Failure("no node on \(port)") }
        primary.stop()
        try waitUntil(seconds: 30, "no replica took over from \(port)") {
            let owner = try? primaryPort(ofSlot: slot)
            let isOK = try live().cli("CLUSTER", "INFO").contains("cluster_state:ok")
            return owner != nil && owner != port && isOK
        }
    }

    /// A node still running.
    private func live() throws -> RedisServer {
        guard let node = nodes.first(where: \.isRunning) else { throw RedisServer.Failure("every node is down") }
        return node
    }

    /// Polls `condition` until it holds or `seconds` pass.
    private func waitUntil(seconds: Int, _ failure: String, _ condition: () throws -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if (try? condition()) == true { return }
            usleep(50_000)
        }
        throw RedisServer.Failure(failure)
    }
}
