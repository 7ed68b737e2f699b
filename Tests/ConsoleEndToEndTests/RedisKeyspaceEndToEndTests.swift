@testable import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// `cachedeck redis://…` in a real terminal on a real redis-server: the tree, a prefix, a
/// key, with the numbers on screen checked against the server.
@Suite(
    .enabled(if: Tmux.executable != nil, "tmux is not installed"),
    .enabled(if: RedisServer.isInstalled || RedisServer.isRequired), .serialized)
struct RedisKeyspaceEndToEndTests {
    @Test func browseTheTreeOpenAPrefixAndAKeyThenQuit() throws {
        let server = try RedisServer()
        let redis = try RedisConnection(
            endpoint: try RedisEndpoint(url: server.url, environment: [:]), timeout: .seconds(5))
        try redis.command(["MSET"] + (1...3000).flatMap { [RedisArgument("orders:\($0)"), RedisArgument("v\($0)")] })
        try redis.command(["SET", "user:1", "alice", "PX", "3600000"])
        try redis.command(["HSET", "user:2", "name", "bob"])
        let usage = try redis.pipeline((1...3000).map { ["MEMORY", "USAGE", RedisArgument("orders:\($0)")] })
        let ordersBytes = usage.compactMap(\.integer).reduce(0, +)

        // Tall enough for the help to reach the keyspace's own keys (after deleting and the audit log's).
        let tmux = try Tmux(columns: 120, rows: 45)
        try tmux.type("\(ConsoleEndToEndTests.binary) \(server.url); echo exit=$?", enter: true)
        let top = try tmux.waitFor("scanned 3,002 keys")
        #expect(top.contains("Redis 7") || top.contains("Redis "))
        #expect(top.contains("3,002 keys"), "DBSIZE in the header")
        let orders = try #require(top.split(separator: "\n").first { $0.contains("orders:") })
        #expect(orders.contains(" 3,000 ") && orders.contains(Self.bytes(Int(ordersBytes))), "\(orders)")
        #expect(!orders.contains("≥") && !orders.contains("~"), "exact once the scan is done")

        try tmux.keys("Enter")
        let level = try tmux.waitFor("orders: · 3,000 keys")
        #expect(level.contains("› orders:"))
        try tmux.keys("Enter")
        let detail = try tmux.waitFor("Value · lines 1–1 of 1")
        let keyLine = try #require(detail.split(separator: "\n").first { $0.hasPrefix(" Key ") })
        let key = String(try #require(keyLine.split(separator: " ").last))
        let memory = try server.cli("MEMORY", "USAGE", key)
        #expect(detail.contains("Type     string (embstr)"))
        #expect(detail.contains("Memory   \(memory) B") && detail.contains("Expires  never"))
        #expect(detail.contains("│ \(try server.cli("GET", key)) "))

        try tmux.keys("BSpace")
        try tmux.waitFor("orders: · 3,000 keys")
        try tmux.keys("Left")
        try tmux.waitFor("top level · 3,002 keys")
        try tmux.keys("?")
        try tmux.waitFor("Scan the keyspace again")
        try tmux.keys("q", "q")
        try tmux.waitFor("exit=0")
    }

    @Test func deleteAPrefixAfterItsPreviewThenUndoItFromTheAuditView() throws {
        let server = try RedisServer()
        let redis = try RedisConnection(
            endpoint: try RedisEndpoint(url: server.url, environment: [:]), timeout: .seconds(5))
        try redis.command(["MSET"] + (1...3000).flatMap { [RedisArgument("orders:\($0)"), RedisArgument("v\($0)")] })
        try redis.command(["SET", "user:1", "alice"])
        let usage = try redis.pipeline((1...3000).map { ["MEMORY", "USAGE", RedisArgument("orders:\($0)")] })
        let ordersBytes = Int(usage.compactMap(\.integer).reduce(0, +))

        let tmux = try Tmux(columns: 120, rows: 30)
        try tmux.type("\(ConsoleEndToEndTests.binary) \(server.url); echo exit=$?", enter: true)
        try tmux.waitFor("scanned 3,001 keys")
        // The largest row, orders:, is selected: d previews exactly its keys.
        try tmux.keys("d")
        let dialog = try tmux.waitFor("Delete them?")
        #expect(dialog.contains("Delete 3,000 keys under prefix 'orders:'"), "\(dialog)")
        #expect(dialog.contains("3,000 keys") && dialog.contains(Self.bytes(ordersBytes)), "\(dialog)")
        try tmux.keys("y")
        try tmux.waitFor("Delete 3,000 keys under prefix 'orders:': deleted 3,000 keys")
        try tmux.waitUntil("the tree scanned again") { $0.contains("scanned") && !$0.contains("orders:") }
        #expect(try redis.command(["EXISTS", "orders:1", "orders:3000"]).integer == 0)
        #expect(try redis.command(["GET", "user:1"]).string == "alice")

        try tmux.keys("4")
        try tmux.waitFor("delete 3,000 keys under prefix 'orders:'")
        try tmux.keys("u")
        try tmux.waitFor("Restored 3,000")
        #expect(try redis.command(["GET", "orders:3000"]).string == "v3000")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }

    @Test func topologySlowLogSortAndSearchInTheKeyspace() throws {
        // The slow log keeps the three writes, not the console's own reads.
        let server = try RedisServer(arguments: ["--slowlog-log-slower-than", "0"])
        for (key, value) in [("zeta:1", "z"), ("alpha:1", String(repeating: "a", count: 300)), ("mid", "m")] {
            _ = try server.cli("SET", key, value)
        }
        _ = try server.cli("CONFIG", "SET", "slowlog-log-slower-than", "10000000")
        let tmux = try Tmux(columns: 120, rows: 30)
        try tmux.type("\(ConsoleEndToEndTests.binary) \(server.url); echo exit=$?", enter: true)
        try tmux.waitFor("scanned 3 keys")

        try tmux.keys("i")
        let topology = try tmux.waitUntil("the node and namespaces") {
            $0.contains("One server (not a cluster)") && $0.contains("None (no RedisStore wrote here).")
        }
        let node = try #require(
            topology.split(separator: "\n").first { $0.contains("127.0.0.1:\(server.port)") && $0.contains("primary") })
        #expect(node.contains("all keys") && node.contains(" 3 ") && node.hasSuffix("up"), "\(node)")
        #expect(topology.contains("None (no RedisStore wrote here)."))

        try tmux.keys("L")
        let slow = try tmux.waitUntil("the slow log") { $0.contains("SET alpha:1") && $0.contains("latency spikes") }
        let set = try #require(slow.split(separator: "\n").first { $0.contains("SET alpha:1 aaaa") }, "\(slow)")
        #expect(set.contains(" µs ") && set.contains("…") && set.contains("127.0.0.1:"), "\(set)")
        #expect(slow.contains("latency spikes") && !slow.contains("SCAN 0"), "\(slow)")
        #expect(slow.contains("None recorded (the latency monitor is off"))

        try tmux.keys("Escape")
        try tmux.waitFor("top level · 3 keys")
        try tmux.keys("s")
        let byName = try tmux.waitFor("Sorted by name")
        let rows = byName.split(separator: "\n").filter { $0.contains("alpha:") || $0.contains("mid") || $0.contains("zeta:") }
        #expect(rows.count == 3 && rows[0].contains("alpha:") && rows[1].contains("mid") && rows[2].contains("zeta:"))
        try tmux.keys("/")
        try tmux.type("z*")
        try tmux.keys("Enter")
        let searched = try tmux.waitFor("1 of 3 loaded match")
        #expect(!searched.contains("alpha:") && searched.contains("zeta:") && searched.contains("/z*"))
        try tmux.keys("Escape")
        try tmux.waitUntil("the search cleared") { !$0.contains("loaded match") && $0.contains("alpha:") }
        // The cursor went to zeta:, the one row the search left, and stays on it after.
        try tmux.keys("b")
        let breakdown = try tmux.waitUntil("the breakdown") { $0.contains("zeta: · 1 key · ") && $0.contains(" never ") }
        let memory = try server.cli("MEMORY", "USAGE", "zeta:1")
        let string = try #require(breakdown.split(separator: "\n").first { $0.contains(" string ") }, "\(breakdown)")
        #expect(string.contains(" 1 ") && string.contains("\(memory) B") && string.contains("100.0%"), "\(string)")
        #expect(breakdown.split(separator: "\n").contains { $0.contains(" never ") && $0.contains("100.0%") })
        try tmux.keys("Escape")
        try tmux.waitFor("top level · 3 keys")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }

    @Test func aClustersTopologyAndSlowLogShowEveryNodeAndADownOne() throws {
        let cluster = try RedisCluster()
        defer { cluster.stop() }
        let tmux = try Tmux(columns: 140, rows: 60)
        try tmux.type("\(ConsoleEndToEndTests.binary) '\(cluster.url)'; echo exit=$?", enter: true)
        try tmux.waitFor("top level")
        try tmux.keys("i")
        func rows(_ pane: String, _ role: String) -> [Substring] {
            pane.split(separator: "\n").filter { $0.contains("127.0.0.1:") && $0.contains(" \(role) ") }
        }
        // Polled until the whole frame is drawn (a capture may land mid-frame).
        let topology = try tmux.waitUntil("six nodes") {
            $0.contains("Cluster: 3 primaries, 3 replicas") && rows($0, "primary").count + rows($0, "replica").count == 6
        }
        let primaries = rows(topology, "primary")
        #expect(primaries.count == 3 && primaries.allSatisfy { $0.contains("5,46") && $0.hasSuffix("up") }, "\(topology)")
        #expect(primaries.contains { $0.contains("(0-5460)") }, "\(topology)")
        #expect(rows(topology, "replica").count == 3 && rows(topology, "replica").allSatisfy { $0.contains("of 127.0.0.1:") })

        let replica = cluster.nodes[5]
        replica.stop()
        let down = try tmux.waitUntil("the replica DOWN") {
            $0.contains("1 DOWN") && $0.split(separator: "\n").contains { $0.contains(":\(replica.port) ") && $0.hasSuffix("DOWN") }
        }
        let row = try #require(down.split(separator: "\n").first { $0.contains("127.0.0.1:\(replica.port) ") })
        #expect(row.hasSuffix("DOWN") && row.contains(" – "), "\(row)")
        try tmux.keys("L")
        let slow = try tmux.waitUntil("the slow logs") { $0.contains("(replica)") && $0.contains("Cannot read: ") }
        #expect(slow.contains("127.0.0.1:\(replica.port) (replica)") && slow.contains("Cannot read: "), "\(slow)")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }

    /// Bytes as the console shows them (decimal units, one decimal).
    static func bytes(_ value: Int) -> String {
        value < 1000
            ? "\(value) B"
            : value < 1_000_000
                ? String(format: "%.1f kB", Double(value) / 1000)
                : String(format: "%.1f MB", Double(value) / 1_000_000)
    }
}
