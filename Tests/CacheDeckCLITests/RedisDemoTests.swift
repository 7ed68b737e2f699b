import CacheCore
import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

/// `cachedeck demo redis://…` on a private redis-server: the same demo as in a file, reused by
/// a second run, and never over another cache's namespaces.
@Suite("cachedeck demo on Redis", .enabled(if: redisAvailable))
struct RedisDemoTests {
    let server: RedisServer
    let folder: TemporaryFolder

    init() throws {
        server = try RedisServer()
        folder = try TemporaryFolder()
    }

    func run(_ arguments: String...) throws -> CLIResult {
        try CLIProcess(arguments, folder: folder).wait()
    }

    /// Live entries per namespace, counted by a complete census.
    func counts() throws -> [String: Int] {
        let census = try RedisStoreInspector(url: server.url).census()
        _ = try census.finish()
        return Dictionary(uniqueKeysWithValues: census.namespaces().map { ($0.namespace.name, $0.entries) })
    }

    static let mailboxes = (0..<20).map { "mailbox_\($0)" }

    @Test func buildsTheDemoInARedisStoreAndASecondRunReusesIt() throws {
        let built = try run("demo", server.url, "--scale", "0.02")
        #expect(built.status == 0 && built.stderr.isEmpty, "\(built.stderr)")
        #expect(built.stdout.contains("Built ") && built.stdout.contains("in redis://127.0.0.1:\(server.port) in "))
        #expect(
            built.stdout.contains(
                "on Redis, mail expires 15 minutes after it arrives: Redis refuses a per-namespace cap"))
        #expect(built.stdout.contains("Open it with: cachedeck redis://127.0.0.1:\(server.port)\n"))

        let counts = try counts()
        #expect(Set(counts.keys) == Set(["colors", "themes", "parts", "sets", "planner", "tiles"] + Self.mailboxes))
        #expect(counts["colors"] == 180 && counts["themes"] == 450 && counts["parts"] == 600)
        #expect((380...400).contains(counts["sets"] ?? 0), "sets a day old are gone: \(counts)")
        #expect(counts["planner"] == 800 && counts["tiles"] == 560)
        #expect(Self.mailboxes.allSatisfy { counts[$0] == 22 }, "\(counts)")
        let mailbox = try #require(
            try RedisStoreInspector(url: server.url).namespaces().first { $0.name == "mailbox_0" })
        #expect(mailbox.policy?.maxEntries == nil && mailbox.policy?.expiration == .after(.seconds(900)))

        let again = try run("demo", server.url, "--scale", "0.02")
        #expect(again.status == 0 && again.stderr.isEmpty)
        #expect(
            again.stdout.contains("Using the demo cache in redis://127.0.0.1:\(server.port) (--rebuild starts over)"))
        #expect(try self.counts() == counts)
    }

    @Test func refusesAPrefixHoldingAnotherCacheAndRebuildClearsOnlyTheDemo() throws {
        let store = try RedisStore(url: server.url)
        try store.cache("shop", key: String.self, value: Int.self, policy: .default).set(7, for: "price")
        try store.cache("colors", key: Int.self, value: String.self, policy: .default).set("stale", for: 999)
        store.close()
        try server.cli("SET", "other:key", "kept")

        let refused = try run("demo", server.url, "--scale", "0.02")
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        #expect(
            refused.errorLines == [
                "cachedeck: redis://127.0.0.1:\(server.port) already holds a cache under cachedeck: that is not the "
                    + "demo (namespaces shop); use an empty database, or --rebuild to clear only the demo's namespaces"
            ])

        let rebuilt = try run("demo", server.url, "--scale", "0.02", "--rebuild")
        #expect(rebuilt.status == 0 && rebuilt.stderr.isEmpty, "\(rebuilt.stderr)")
        #expect(rebuilt.stdout.contains("cleared the demo's 1 namespace (1 entry); others under cachedeck: are kept"))
        let counts = try counts()
        #expect(counts["shop"] == 1 && counts["colors"] == 180 && counts["parts"] == 600)
        #expect(try server.cli("GET", "other:key") == "kept")
    }
}
