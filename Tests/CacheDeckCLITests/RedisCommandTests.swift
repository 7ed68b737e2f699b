import CacheCore
import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

/// Runs where `redis-server` is installed, and always in CI (where a missing one fails).
let redisAvailable = RedisServer.isInstalled || RedisServer.isRequired

/// A RedisStore on `server` without statistics, as an app beside the commands under test.
func openStore(on server: RedisServer) throws -> RedisStore {
    var options = StoreOptions()
    options.statistics = .disabled
    return try RedisStore(url: server.url, options: options, redis: RedisStoreOptions(environment: [:]))
}

/// `keys`, `key` and `info` on a real redis-server, and Redis URLs where only files go.
@Suite("Redis keyspace commands", .enabled(if: redisAvailable))
struct RedisCommandTests {
    let server: RedisServer
    let folder: TemporaryFolder

    init() throws {
        server = try RedisServer()
        folder = try TemporaryFolder()
        try server.cli("MSET", "user:1", "alice", "user:2", "bob", "user:admin:1", "root", "plain", "x")
        try server.cli("HSET", "user:h", "name", "carol")
        try server.cli("PEXPIRE", "user:1", "3600000")
    }

    func run(_ arguments: String...) throws -> CLIResult {
        try CLIProcess(arguments, folder: folder).wait()
    }

    func memory(_ key: String) throws -> Int { try #require(Int(try server.cli("MEMORY", "USAGE", key))) }

    @Test func keysPrintsALevelOfTheTreeWithExactCountsAndMemory() throws {
        let top = try run("keys", server.url)
        #expect(top.status == 0 && top.stderr.isEmpty)
        let lines = top.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("name") == true && lines.first?.hasSuffix("ttl") == true)
        let user = try #require(lines.first { $0.hasPrefix("user:") }).split(separator: " ")
        let userBytes = try memory("user:1") + memory("user:2") + memory("user:admin:1") + memory("user:h")
        #expect(user == ["user:", "prefix", "4", "\(userBytes)", "B", "–"])
        #expect(top.stdout.contains("5 keys, "))

        let below = try run("keys", server.url, "user:", "--json").object()
        #expect(
            Set(below.keys) == [
                "prefix", "prefixText", "separator", "children", "childCount", "keys", "bytes", "unlistedKeys", "scan",
            ])
        #expect(below["prefixText"] as? String == "user:" && below["childCount"] as? Int == 4)
        let children = try #require(below["children"] as? [[String: Any]])
        let one = try #require(children.first { $0["nameText"] as? String == "1" })
        #expect(Set(one.keys) == ["kind", "name", "nameText", "path", "keys", "bytes", "type", "expiresAt"])
        #expect(one["type"] as? String == "string" && one["kind"] as? String == "key")
        #expect((one["bytes"] as? [String: Any])?["value"] as? Int == (try memory("user:1")))
        let admin = try #require(children.first { $0["nameText"] as? String == "admin:" })
        #expect(Set(admin.keys) == ["kind", "name", "nameText", "path", "keys", "bytes"])
        let scan = try #require(below["scan"] as? [String: Any])
        #expect(
            scan["isComplete"] as? Bool == true && scan["keysFound"] as? Int == 4
                && scan["isMatchScan"] as? Bool == true)
    }

    @Test func keyShowsTheDetailAndItsPreview() throws {
        let text = try run("key", server.url, "user:h")
        #expect(text.status == 0)
        #expect(text.stdout.contains("Type     hash (listpack)") && text.stdout.contains("name = carol"))
        #expect(text.stdout.contains("1 field\n") || text.stdout.contains("1 field "))
        let json = try run("key", server.url, "user:1", "--json").object()
        #expect(
            Set(json.keys) == [
                "key", "keyText", "type", "encoding", "ttlMilliseconds", "expiresAt", "bytes", "length", "lengthUnit",
                "preview",
            ])
        #expect(json["length"] as? Int == 5 && (json["preview"] as? [String: Any])?["text"] as? String == "alice")
        let missing = try run("key", server.url, "nothing")
        #expect(missing.status == 1 && missing.errorLines == ["cachedeck: no key nothing in 127.0.0.1:\(server.port)"])
    }

    @Test func infoAcceptsARedisURL() throws {
        let json = try run("info", server.url, "--json").object()
        #expect(json["keyCount"] as? Int == 5 && json["role"] as? String == "master")
        #expect(
            Set(json.keys) == [
                "endpoint", "database", "version", "role", "usedMemory", "maxMemory", "maxMemoryPolicy", "keyCount",
            ])
        let table = try run("info", server.url)
        #expect(table.status == 0 && table.stdout.contains("Keys        5 (DBSIZE)"))
    }

    @Test func slowlogPrintsEachNodesSlowCommandsAndLatency() throws {
        try server.cli("CONFIG", "SET", "slowlog-log-slower-than", "0")
        try server.cli("SET", "evil", "\u{1b}]0;title\u{7}")
        try server.cli("CONFIG", "SET", "slowlog-log-slower-than", "10000000")
        let table = try run("slowlog", server.url, "--count", "3")
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.first == "127.0.0.1:\(server.port) (primary): slow log, newest 2 of 2 kept", "\(table.stdout)")
        #expect(lines.contains { $0.contains("SET evil \\x1b]0;title\\x07") && $0.contains("127.0.0.1:") })
        #expect(!table.stdout.contains("\u{1b}") && table.stdout.contains("latency spikes (none recorded)"))
        let node = try #require((try run("slowlog", server.url, "--json").json() as? [[String: Any]])?.first)
        #expect(node["node"] as? String == "127.0.0.1:\(server.port)" && node["slowLogLength"] as? Int == 2)
        let commands = (node["slowLog"] as? [[String: Any]] ?? []).compactMap { $0["command"] as? String }
        #expect(commands == ["SET evil \\x1b]0;title\\x07", "CONFIG SET slowlog-log-slower-than 0"])
        let bad = try run("slowlog", server.url, "--count", "0")
        #expect(bad.status == 2 && bad.stderr.contains("--count must be between 1 and 1000"))
    }

    @Test func badURLsRefusedConnectionsAndWrongPasswordsFailInOneLine() throws {
        let locked = try RedisServer(password: "right")
        let cases: [([String], String)] = [
            (["keys", "redis://"], "cachedeck: bad Redis URL: \"redis://\" names no host"),
            (["key", "redis://127.0.0.1:\(locked.port)/0", "k"], "refused the login"),
            (["keys", "redis://:wrong@127.0.0.1:\(locked.port)/0"], "refused the login"),
            (["namespaces", "redis://:wrong@127.0.0.1:\(locked.port)/0"], "refused the credentials"),
            (["check", server.url], "is a Redis URL; this command reads cache files only"),
            (["ls", server.url, "ns"], "cachedeck: no namespace named 'ns'"),
            (["sweep", "redis://:secret@127.0.0.1:1/0", "--yes"], "redis://127.0.0.1:1/0 is a Redis URL"),
        ]
        for (arguments, message) in cases {
            let result = try CLIProcess(arguments, folder: folder).wait()
            #expect(result.status == 1 && result.stdout.isEmpty, "\(arguments)")
            #expect(result.errorLines.count == 1 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("secret"))
        }
        let port = locked.port
        locked.stop()
        let refused = try run("keys", "redis://127.0.0.1:\(port)/0")
        #expect(
            refused.status == 1
                && refused.errorLines == ["cachedeck: cannot connect to Redis at 127.0.0.1:\(port): Connection refused"]
        )
    }
}
