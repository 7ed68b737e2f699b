import CacheCore
import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

/// `keys`, `key`, `info`, `del`, a store's `namespaces`, `ls`, `show`, `timeline` and `stats`,
/// and the actions with undo on a real Redis Cluster (three primaries, three replicas).
@Suite("Redis Cluster commands", .enabled(if: redisAvailable))
struct RedisClusterCommandTests {
    let cluster: RedisCluster
    let folder: TemporaryFolder

    init() throws {
        cluster = try RedisCluster()
        folder = try TemporaryFolder()
        // Keys on every primary: write each through the node serving it (`-c` follows MOVED).
        for index in 0..<30 {
            _ = try cluster.nodes[0].cli("-c", "SET", "user:\(index)", "v\(index)")
        }
    }

    func run(_ arguments: String...) throws -> CLIResult {
        try CLIProcess(arguments, folder: folder).wait()
    }

    @Test func keysKeyAndInfoReadEveryPrimary() throws {
        let keys = try run("keys", cluster.url)
        #expect(keys.status == 0 && keys.stderr.isEmpty, "\(keys.stderr)")
        #expect(keys.stdout.contains("30 keys, "))
        let below = try run("keys", cluster.url, "user:")
        #expect(below.stdout.split(separator: "\n").filter { $0.contains(" string ") }.count == 30)
        let key = try run("key", cluster.url, "user:7")
        #expect(key.status == 0 && key.stdout.contains("v7"))

        let info = try run("info", cluster.url)
        #expect(info.status == 0 && info.stdout.contains("cluster of 3 primaries") && info.stdout.contains("Keys        30"))
        let rows = info.stdout.split(separator: "\n").filter { $0.hasPrefix("127.0.0.1:") }
        #expect(rows.count == 6 && rows.filter { $0.contains(" primary ") }.count == 3 && rows.allSatisfy { $0.hasSuffix("up") })
        #expect(rows.contains { $0.contains(" 5,461 (0-5460) ") }, "\(info.stdout)")
        // With a namespace set, the node each namespace lives on.
        func slot(_ key: String) throws -> Int { try #require(Int(try cluster.nodes[0].cli("CLUSTER", "KEYSLOT", key))) }
        let namespaces = "cachedeck:namespaces"
        let port = try cluster.primaryPort(ofSlot: try slot(namespaces))
        try #require(cluster.node(port: port)).cli("SADD", namespaces, "users")
        let placed = try run("info", cluster.url)
        let users = try #require(placed.stdout.split(separator: "\n").first { $0.hasPrefix("users ") }, "\(placed.stdout)")
        let record = try slot("cachedeck:n:users")
        let owner = try cluster.primaryPort(ofSlot: record)
        #expect(users.contains("127.0.0.1:\(owner)") && users.contains(" \(record) ") && users.hasSuffix("spread over every primary"))

        // Deleting keys over every primary, and the undo (namespaces aside: no RedisStore wrote here).
        try #require(cluster.node(port: port)).cli("DEL", namespaces)
        let deleted = try run("del", cluster.url, "--prefix", "user:", "--yes")
        #expect(deleted.status == 0 && deleted.stdout.contains("Deleted 30 keys"), "\(deleted.stderr)")
        #expect(try run("keys", cluster.url, "user:").stdout.contains("0 keys"))
        let id = try #require(deleted.stdout.split(separator: " ").last.map { $0.filter(\.isNumber) })
        let restored = try run("restore", cluster.url, id)
        #expect(restored.status == 0 && restored.stdout.contains("Restored 30"), "\(restored.stderr)")
        #expect(try run("key", cluster.url, "user:29").stdout.contains("v29"))
    }

    @Test func storeReadsCoverEveryPrimary() throws {
        var options = StoreOptions()
        options.statistics.metrics = .off
        let store = try RedisStore(url: cluster.url, options: options, redis: RedisStoreOptions(environment: [:]))
        defer { store.close() }
        for index in 0..<12 {
            let cache = try store.cache("ns\(index)", key: String.self, value: String.self)
            try cache.set((0..<(index + 1)).map { (key: "k\($0)", value: "v\($0)") })
            _ = try cache.get("k0")
        }
        try store.flushTelemetry()
        let list = try #require(try run("namespaces", cluster.url, "--json").json() as? [[String: Any]])
        #expect(list.count == 12)
        for row in list {
            let index = try #require((row["name"] as? String).flatMap { Int($0.dropFirst(2)) })
            #expect(row["entryCount"] as? Int == index + 1, "\(row)")
        }
        let table = try run("namespaces", cluster.url)
        #expect(table.status == 0 && table.stdout.hasPrefix("namespace") && table.stdout.contains("ns11"), "\(table.stderr)")
        let timeline = try run("timeline", cluster.url, "--json").object()
        let buckets = try #require(timeline["buckets"] as? [[String: Any]])
        #expect(buckets.compactMap { $0["entries"] as? Int }.reduce(0, +) == 78, "1 + 2 + … + 12 entries: \(buckets)")
        let page = try run("ls", cluster.url, "ns11", "--json").object()
        #expect(try #require(page["rows"] as? [[String: Any]]).count == 12)
        let show = try run("show", cluster.url, "ns9", "k3")
        #expect(show.status == 0 && show.stdout.contains("\"v3\""), "\(show.stderr)")
        // A filter that lists keys reads them from the namespace's node.
        let filtered = try run("invalidate", cluster.url, "ns11", "--filter", "k1", "--dry-run", "--json").object()
        #expect((filtered["impact"] as? [String: Any])?["entries"] as? Int == 3, "k1, k10, k11: \(filtered)")
        let stats = try run("stats", cluster.url, "ns7", "--json").object()
        let windows = try #require(stats["windows"] as? [[String: Any]])
        let minute = try #require(windows.first?["activity"] as? [String: Any])
        #expect(minute["hits"] as? Int == 1 && minute["sets"] as? Int == 8, "\(minute)")
    }

    @Test func actionsAndTheirUndoRunOnTheClusterFromTheCommandLine() throws {
        let store = try RedisStore(url: cluster.url, redis: RedisStoreOptions(environment: [:]))
        defer { store.close() }
        // Namespaces on several primaries, each with half its entries tagged `warm`.
        let caches = try (0..<6).map { index in
            let cache = try store.cache("ns\(index)", key: String.self, value: String.self)
            try cache.set((0..<40).map { (key: "k\($0)", value: "v", tags: $0 % 2 == 0 ? ["warm"] : []) })
            return cache
        }
        func counts() throws -> [Int] { try caches.map { try $0.count() } }

        let preview = try run("invalidate", cluster.url, "--tag", "warm", "--dry-run")
        #expect(preview.status == 0 && preview.stdout.contains("120 entries"), "\(preview.stdout)\(preview.stderr)")
        let tagged = try run("invalidate", cluster.url, "--tag", "warm", "--yes", "--json").object()
        let taggedID = try #require(tagged["auditID"] as? Int)
        #expect(try tagged["removed"] as? Int == 120 && counts() == Array(repeating: 20, count: 6))
        let cleared = try run("clear", cluster.url, "--all", "--yes")
        #expect(cleared.status == 0 && cleared.stdout.hasPrefix("Removed 120 entries"), "\(cleared.stdout)\(cleared.stderr)")
        #expect(try counts() == Array(repeating: 0, count: 6))

        let audit = try run("audit", cluster.url)
        #expect(audit.status == 0 && audit.stdout.split(separator: "\n").count == 3, "\(audit.stdout)\(audit.stderr)")
        let clearID = taggedID + 1
        let restored = try run("restore", cluster.url, "\(clearID)")
        #expect(restored.stdout == "Restored 120 entries of action #\(clearID).\n", "\(restored.stderr)")
        let again = try run("restore", cluster.url, "\(taggedID)")
        #expect(again.stdout == "Restored 120 entries of action #\(taggedID).\n", "\(again.stderr)")
        #expect(try counts() == Array(repeating: 40, count: 6))
    }
}
