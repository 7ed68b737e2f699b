import CacheCoreRedis
import Foundation
import LocalRedis

/// The database a keyspace bench browses: one private `redis-server`, or a private 3+3
/// Redis Cluster, filled with plain strings no store wrote (9 in 10 `user:N`, 1 in 10
/// `cache:page:N`, 100-byte values), as the issue's case has them.
final class KeyspaceDeployment {
    /// The URL the console and `cachedeck keys` open.
    let url: String
    /// One `redis://` URL per primary (the server itself when standalone).
    let primaryURLs: [String]
    /// For each slot, the index in `primaryURLs` of the primary serving it (empty when standalone).
    private let slotOwners: [Int]
    private let stopAll: () -> Void

    init(cluster: Bool) throws {
        if cluster {
            let cluster = try RedisCluster()
            let owners = try Self.slotOwners(cluster.nodes[0].cli("CLUSTER", "NODES"))
            let ports = Array(Set(owners)).sorted()
            url = cluster.url
            primaryURLs = ports.map { "redis://127.0.0.1:\($0)/0" }
            slotOwners = owners.map { ports.firstIndex(of: $0) ?? 0 }
            stopAll = cluster.stop
        } else {
            let server = try RedisServer()
            url = server.url
            primaryURLs = [server.url]
            slotOwners = []
            stopAll = server.stop
        }
    }

    deinit { stopAll() }

    var summary: String {
        primaryURLs.count > 1 ? "a Redis Cluster of \(primaryURLs.count) primaries and as many replicas" : "one redis-server"
    }

    /// The name of key `index`.
    static func key(_ index: Int) -> String {
        index % 10 == 0 ? "cache:page:\(index)" : "user:\(index)"
    }

    /// Writes `count` keys with `redis-cli --pipe`, one process per primary at once, each
    /// given the keys of its slots (raw `SET`s: the fastest load a server takes).
    func fill(_ count: Int) throws {
        var pipes: [(Process, FileHandle)] = []
        for url in primaryURLs {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["redis-cli", "-u", url, "--pipe"]
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            pipes.append((process, input.fileHandleForWriting))
        }
        let value = String(repeating: "v", count: 100)
        var chunks = Array(repeating: Data(), count: pipes.count)
        for index in 0..<count {
            let key = Self.key(index)
            let node = slotOwners.isEmpty ? 0 : slotOwners[ClusterSlot.of(key.utf8)]
            chunks[node].append(contentsOf: "*3\r\n$3\r\nSET\r\n$\(key.utf8.count)\r\n\(key)\r\n$100\r\n\(value)\r\n".utf8)
            if chunks[node].count >= 1 << 20 {
                pipes[node].1.write(chunks[node])
                chunks[node].removeAll(keepingCapacity: true)
            }
        }
        for (node, (process, input)) in pipes.enumerated() {
            input.write(chunks[node])
            try input.close()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw BenchError("redis-cli --pipe failed") }
        }
        let total = try primaryURLs.reduce(0) { $0 + (try RedisRawClient(url: $1).command(["DBSIZE"])) }
        guard total == count else { throw BenchError("filled \(total) of \(count) keys") }
    }

    /// The port of the primary serving each slot, from `CLUSTER NODES`.
    private static func slotOwners(_ nodes: String) throws -> [Int] {
        var owners = Array(repeating: -1, count: ClusterSlot.count)
        for line in nodes.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 9, fields[2].contains("master"),
                let port = fields[1].split(separator: ":").last?.split(separator: "@").first.flatMap({ Int($0) })
            else { continue }
            for range in fields[8...] {
                let bounds = range.split(separator: "-").compactMap { Int($0) }
                guard let first = bounds.first, let last = bounds.last, first >= 0, last < owners.count else { continue }
                for slot in first...last { owners[slot] = port }
            }
        }
        guard !owners.contains(-1) else { throw BenchError("CLUSTER NODES left slots unserved") }
        return owners
    }
}
