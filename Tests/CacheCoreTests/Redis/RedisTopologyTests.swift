@testable import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// The topology and the slow log of one real redis-server.
@Suite("Redis topology and slow log", .enabled(if: redisAvailable))
struct RedisTopologyTests {
    @Test func oneServerIsOneNodeHoldingEveryNamespace() throws {
        let server = try RedisServer()
        let keys = RedisKeys(prefix: "app:")
        _ = try server.cli("SADD", keys.namespaces, "users", "pages")
        _ = try server.cli("SET", "other", "x")
        let keyspace = try RedisKeyspace(url: server.url, environment: [:])
        let topology = try keyspace.topology(storePrefix: "app:")
        #expect(!topology.isCluster && topology.storePrefix == "app:")
        let node = try #require(topology.nodes.first)
        #expect(topology.nodes.count == 1 && node.address == "127.0.0.1:\(server.port)" && node.role == "primary")
        #expect(node.keys == 2 && !node.isDown && (node.usedMemory ?? 0) > 0 && node.opsPerSecond != nil)
        #expect(topology.namespaces.map(\.name) == ["pages", "users"])
        #expect(topology.namespaces.allSatisfy { $0.node == node.address && $0.slot == nil && $0.entriesShareSlot })
        // Another prefix holds no store.
        #expect(try keyspace.topology(storePrefix: "none:").namespaces.isEmpty)
    }

    @Test func theSlowLogAndLatencySpikesAreReadEscapedAndBounded() throws {
        let server = try RedisServer(arguments: [
            "--slowlog-log-slower-than", "0", "--latency-monitor-threshold", "1", "--enable-debug-command", "yes",
        ])
        let redis = try RedisConnection(
            endpoint: try RedisEndpoint(url: server.url, environment: [:]), timeout: .seconds(5))
        // A value with terminal controls, and one longer than the log keeps.
        try redis.command(["SET", "k", "\u{1b}[2Jboom\n"])
        try redis.command(["SET", "long", RedisArgument(String(repeating: "x", count: 500))])
        try redis.command(["DEBUG", "SLEEP", "0.02"])
        let logs = try RedisKeyspace(url: server.url, environment: [:]).latency(count: 50)
        let node = try #require(logs.first)
        #expect(logs.count == 1 && node.failure == nil && node.role == "primary")
        #expect((node.slowLogLength ?? 0) >= 3 && node.slowLog.count <= 50)
        let set = try #require(node.slowLog.first { $0.command.hasPrefix("SET k ") })
        #expect(set.command == "SET k \\x1b[2Jboom\\x0a" && set.client.hasPrefix("127.0.0.1:"))
        let long = try #require(node.slowLog.first { $0.command.hasPrefix("SET long ") })
        #expect(long.command.count <= "SET long ".count + RedisNodeLatency.maxArgumentLength && long.command.hasSuffix("…"))
        let sleep = try #require(node.slowLog.first { $0.command.hasPrefix("DEBUG SLEEP") })
        #expect(sleep.microseconds >= 20_000)
        // Newest first.
        #expect(node.slowLog.map(\.id) == node.slowLog.map(\.id).sorted(by: >))
        let spike = try #require(node.latency.first { $0.event == "command" })
        #expect(spike.latestMilliseconds >= 20 && spike.maxMilliseconds >= spike.latestMilliseconds)
    }

    @Test func aHostileSlowLogIsBoundedAndEscaped() throws {
        typealias Fake = FakeRedisServer
        let huge = Fake.array((0..<100).map { _ in Fake.bulk(String(repeating: "\u{1b}", count: 1000)) })
        let fake = try Fake { command in
            if let login = Fake.login(command) { return login }
            switch command.map { $0.uppercased() }.prefix(2).joined(separator: " ") {
            case "INFO REPLICATION": return .bytes(Fake.bulk("role:master\r\n"))
            case "SLOWLOG GET":
                return .bytes(
                    Fake.array(
                        [
                            Fake.array([Fake.integer(7), Fake.integer(.max), Fake.integer(-5), huge]),
                            Fake.integer(3), Fake.array([Fake.bulk("x")]),
                        ]
                            + (0..<2000).map { _ in
                                Fake.array([Fake.integer(1), Fake.integer(1), Fake.integer(1), Fake.array([Fake.bulk("GET")])])
                            }))
            case "SLOWLOG LEN": return .bytes(Fake.bulk("not a number"))
            case "LATENCY LATEST":
                return .bytes(
                    Fake.array([
                        Fake.array([Fake.bulk("\u{7}evil"), Fake.integer(1), Fake.integer(-1), Fake.integer(.max)]),
                        Fake.bulk("junk"),
                    ]))
            default: return .bytes(Fake.error("ERR unscripted"))
            }
        }
        let logs = try RedisKeyspace(url: fake.url, environment: [:], timeout: .seconds(2)).latency(count: 5000)
        let node = try #require(logs.first)
        #expect(node.failure == nil && node.slowLogLength == nil)
        // The first 1,000 entries read, less the two malformed ones.
        #expect(node.slowLog.count == RedisNodeLatency.maxEntries - 2)
        let first = try #require(node.slowLog.first)
        #expect(first.id == 7 && first.startedAt == .max && first.microseconds == 0)
        let arguments = first.command.split(separator: " ")
        #expect(arguments.count == RedisNodeLatency.maxArguments)
        #expect(arguments.allSatisfy { $0.count <= RedisNodeLatency.maxArgumentLength && !$0.contains("\u{1b}") })
        #expect(node.latency.count == 1 && node.latency[0].event == "\\x07evil" && node.latency[0].latestMilliseconds == 0)
    }
}
