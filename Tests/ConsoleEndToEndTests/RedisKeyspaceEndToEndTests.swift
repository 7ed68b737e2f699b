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

        let tmux = try Tmux(columns: 120, rows: 30)
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

    /// Bytes as the console shows them (decimal units, one decimal).
    static func bytes(_ value: Int) -> String {
        value < 1000
            ? "\(value) B"
            : value < 1_000_000
                ? String(format: "%.1f kB", Double(value) / 1000)
                : String(format: "%.1f MB", Double(value) / 1_000_000)
    }
}
