@testable import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// `cachedeck redis://…` on a database a RedisStore wrote: the same Overview, Entries and
/// Detail screens as for a file, with the numbers on screen checked against the server.
@Suite(
    .enabled(if: Tmux.executable != nil, "tmux is not installed"),
    .enabled(if: RedisServer.isInstalled || RedisServer.isRequired), .serialized)
struct RedisStoreEndToEndTests {
    @Test func overviewEntriesAndDetailOfARedisStore() throws {
        let server = try RedisServer()
        var options = StoreOptions()
        options.statistics.metrics = .off
        let store = try RedisStore(url: server.url, options: options, redis: RedisStoreOptions(environment: [:]))
        let products = try store.cache("products", key: String.self, value: [String: Int].self)
        try products.set((0..<1200).map { (key: "product-\($0)", value: ["price": $0]) })
        let sessions = try store.cache("sessions", key: Int.self, value: String.self)
        try sessions.set((0..<7).map { (key: $0, value: "user \($0)") }, expiration: .after(.seconds(600)))
        _ = try products.get("product-1")
        try store.flushTelemetry()
        // What the server holds: the entries of each namespace's live generation.
        let productKeys = try server.cli("--scan", "--pattern", "cachedeck:e:products:1:*").split(separator: "\n")
        #expect(productKeys.count == 1200)

        let tmux = try Tmux(columns: 120, rows: 30)
        try tmux.type("\(ConsoleEndToEndTests.binary) \(server.url); echo exit=$?", enter: true)
        try tmux.waitFor("counted by SCAN")
        let overview = try tmux.waitFor("sessions")
        #expect(overview.contains("Redis ") && overview.contains("1,207 entries"))
        #expect(overview.contains("1 live app"), "the store's heartbeat")
        let productsRow = try #require(overview.split(separator: "\n").first { $0.contains("products") })
        #expect(productsRow.contains("1,200") && !productsRow.contains("≥"), "\(productsRow)")
        let sessionsRow = try #require(overview.split(separator: "\n").first { $0.contains("sessions") })
        #expect(sessionsRow.contains(" 7 "), "\(sessionsRow)")

        try tmux.keys("Enter")
        let entries = try tmux.waitFor("SCAN order")
        #expect(entries.contains("1,200 entries") && entries.contains("product-"))
        try tmux.keys("Enter")
        let detail = try tmux.waitFor("\"price\"")
        let keyLine = try #require(
            detail.split(separator: "\n").first { $0.contains("Key") && $0.contains("product-") })
        let key = try #require(keyLine.split(separator: " ").first { $0.hasPrefix("product-") })
        let stored = try server.cli("HGET", "cachedeck:e:products:1:\(key)", "v")
        #expect(
            detail.contains("\"price\" : \(stored.filter(\.isNumber))") || detail.contains(stored.filter(\.isNumber)))

        try tmux.keys("Escape")
        try tmux.waitFor("SCAN order")
        try tmux.type(":keyspace", enter: true)
        try tmux.waitFor("cachedeck:")
        try tmux.keys("q", "q")
        try tmux.waitFor("exit=0")
        store.close()
    }

    /// Sessions beside a store: `d` in the keyspace tree deletes them after a preview and the
    /// Audit view undoes it; `d` on the store's own keys is refused in one line naming it.
    @Test func keysBesideAStoreAreDeletedAndTheStoresRefused() throws {
        let server = try RedisServer()
        var options = StoreOptions()
        options.statistics.metrics = .off
        let store = try RedisStore(url: server.url, options: options, redis: RedisStoreOptions(environment: [:]))
        defer { store.close() }
        try store.cache("colors", key: String.self, value: String.self).set("#f00", for: "red")
        try server.cli("MSET", "sessions:1", "a", "sessions:2", "b", "sessions:3", "c")

        let tmux = try Tmux(columns: 120, rows: 30)
        try tmux.type("\(ConsoleEndToEndTests.binary) \(server.url); echo exit=$?", enter: true)
        try tmux.waitFor("counted by SCAN")
        try tmux.type(":keyspace", enter: true)
        try tmux.waitFor("sessions:")
        for (pattern, shown) in [("sessions*", "sessions:"), ("cachedeck*", "cachedeck:")] {
            try tmux.keys("/")
            try tmux.type(pattern)
            try tmux.keys("Enter")
            try tmux.waitFor("/\(pattern): 1 of")
            try tmux.keys("d")
            if shown == "cachedeck:" {
                let refused = try tmux.waitFor("owns the keys there")
                #expect(refused.contains("the RedisStore under cachedeck:") && refused.contains("cachedeck clear"))
                break
            }
            let dialog = try tmux.waitFor("Delete them?")
            #expect(dialog.contains("Delete 3 keys under prefix 'sessions:'") && dialog.contains("3 keys"), "\(dialog)")
            try tmux.keys("y")
            try tmux.waitFor("deleted 3 keys")
            #expect(try server.cli("EXISTS", "sessions:1", "sessions:2", "sessions:3") == "0")
            try tmux.keys("Escape")
        }
        #expect(try server.cli("EXISTS", "cachedeck:namespaces") == "1")

        try tmux.type(":audit", enter: true)
        try tmux.waitFor("delete 3 keys under prefix 'sessions:'")
        try tmux.keys("u")
        try tmux.waitFor("Restored 3")
        #expect(try server.cli("GET", "sessions:3") == "c")
        try tmux.keys("q", "q")
        try tmux.waitFor("exit=0")
    }

    /// On a 3 + 3 cluster: every namespace counted from the primary serving its slot, and a
    /// namespace's entries read from its node.
    @Test func aStoreOnAClusterShowsEveryNamespaceAndItsEntries() throws {
        let cluster = try RedisCluster()
        defer { cluster.stop() }
        var options = StoreOptions()
        options.statistics.metrics = .off
        let store = try RedisStore(url: cluster.url, options: options, redis: RedisStoreOptions(environment: [:]))
        defer { store.close() }
        for index in 0..<9 {
            let cache = try store.cache("ns\(index)", key: String.self, value: String.self)
            try cache.set((0..<(100 + index)).map { (key: "k\($0)", value: "value \($0)") })
        }

        let tmux = try Tmux(columns: 120, rows: 30)
        try tmux.type("\(ConsoleEndToEndTests.binary) '\(cluster.url)'; echo exit=$?", enter: true)
        let overview = try tmux.waitUntil("every namespace counted") { $0.contains("ns8") && $0.contains("936 entries") }
        for index in 0..<9 {
            let row = try #require(overview.split(separator: "\n").first { $0.contains("ns\(index) ") }, "\(overview)")
            #expect(row.contains(" \(100 + index) ") && !row.contains("≥"), "\(row)")
        }
        try tmux.keys("Enter")
        let entries = try tmux.waitFor("SCAN order")
        #expect(entries.contains("100 entries") && entries.contains("k"), "\(entries)")
        try tmux.keys("Enter")
        try tmux.waitFor("\"value ")
        try tmux.keys("q", "q")
        try tmux.waitFor("exit=0")
    }
}
