import CacheDeckTestSupport
import Foundation
import Synchronization
import Testing

@testable import CacheCore
@testable import CacheCoreRedis

private struct Brick: Codable, Sendable, Equatable {
    let id: Int
    let name: String
    let colors: [String]
}

private struct PartKey: Codable, Sendable, Hashable {
    let set: String
    let number: Int
}

private struct Minifig: CacheEntity, Equatable {
    static let cacheNamespace = "minifigs"
    let id: String
    let name: String
    var cacheKey: String { id }
}

@Suite("RedisStore: the Cache API on Redis", .enabled(if: redisAvailable))
struct RedisStoreTests {
    let fixture: RedisFixture
    init() throws { fixture = try RedisFixture() }

    /// "café" as U+00E9 and as "e" + U+0301 (equal as Swift strings) is one Redis key, in NFC,
    /// whichever spelling a store writes or reads it by.
    @Test func aKeyDifferingOnlyInNormalizationIsOneEntry() throws {
        let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")
        let writer = try fixture.open()
        let reader = try fixture.open()
        defer {
            writer.close()
            reader.close()
        }
        let menu = try writer.cache("menu", key: String.self, value: String.self)
        try menu.set("first", for: decomposed)
        try menu.set("second", for: composed)
        #expect(try reader.cache("menu", key: String.self, value: String.self).get(decomposed) == "second")
        let keys = try fixture.connection().command(["KEYS", "cachedeck:e:menu:*"]).array ?? []
        // Compared as bytes: Swift's `==` would hold the two spellings equal.
        #expect(keys.compactMap { $0.string.map { Array($0.utf8) } } == [Array("cachedeck:e:menu:1:\(composed)".utf8)])
        #expect(try reader.cache("menu", key: String.self, value: String.self).remove(composed))
        #expect(try fixture.connection().command(["KEYS", "cachedeck:e:menu:*"]).array?.isEmpty == true)
    }

    @Test func everyValueTypeRoundTripsThroughTheServer() throws {
        let writer = try fixture.open()
        let reader = try fixture.open()
        defer {
            writer.close()
            reader.close()
        }
        let brick = Brick(id: 3001, name: "Brick 2 × 4", colors: ["red", "ünïcode"])
        try writer.cache("bricks", key: Int.self, value: Brick.self).set(brick, for: 3001)
        try writer.cache("names", key: String.self, value: String.self).set("Ada", for: "a:b c")
        try writer.cache("lists", key: String.self, value: [Int].self).set([1, 2, 3], for: "l")
        let bytes = Data((0...255).map(UInt8.init))
        try writer.dataCache("blobs", key: String.self).set(bytes, for: "all")
        let part = PartKey(set: "10696", number: 7)
        try writer.cache("parts", key: PartKey.self, value: Double.self).set(2.5, for: part)
        try writer.entities(Minifig.self).put(Minifig(id: "sw0001", name: "Luke"))
        let date = Date(timeIntervalSince1970: 1_700_000_000.125)
        try writer.cache("dates", key: Int.self, value: Date.self).set(date, for: 1)

        #expect(try reader.cache("bricks", key: Int.self, value: Brick.self).get(3001) == brick)
        #expect(try reader.cache("names", key: String.self, value: String.self).get("a:b c") == "Ada")
        #expect(try reader.cache("lists", key: String.self, value: [Int].self).get("l") == [1, 2, 3])
        #expect(try reader.dataCache("blobs", key: String.self).get("all") == bytes)
        #expect(try reader.cache("parts", key: PartKey.self, value: Double.self).get(part) == 2.5)
        #expect(try reader.entities(Minifig.self).get("sw0001")?.name == "Luke")
        #expect(try reader.cache("dates", key: Int.self, value: Date.self).get(1) == date)
        #expect(try reader.cache("names", key: String.self, value: String.self).get("missing") == nil)
        // The value is the same bytes a file store keeps: JSON, or raw for data caches.
        let raw = try fixture.connection().command(["HGET", "cachedeck:e:names:1:a:b c", "v"])
        #expect(raw.string == "\"Ada\"")
        let stats = reader.statistics().namespaces["bricks"]
        #expect(stats?.diskHits == 1)
    }

    @Test func expiryFollowsTheStoreClockAndStaleReadsTheWindow() throws {
        let store = try fixture.open()
        defer { store.close() }
        let policy = NamespacePolicy(expiration: .after(.seconds(10)), staleWindow: .seconds(60))
        let cache = try store.cache("prices", key: String.self, value: Int.self, policy: policy)
        try cache.set(5, for: "a")
        fixture.clock.advance(by: .seconds(9))
        #expect(try cache.get("a") == 5)
        #expect(try cache.count() == 1)
        fixture.clock.advance(by: .seconds(1))
        #expect(try cache.get("a") == nil)
        #expect(try cache.contains("a") == false)
        #expect(try cache.count() == 0)
        let stale = try cache.getStale("a")
        #expect(stale?.value == 5 && stale?.isStale == true)
        fixture.clock.advance(by: .seconds(60))
        #expect(try cache.getStale("a") == nil)
        // Redis itself expires the key at the end of the stale window (70 s from the set).
        let ttl = try fixture.connection().command(["PTTL", "cachedeck:e:prices:1:a"]).integer ?? -3
        #expect(ttl > 60_000 && ttl <= 70_000)
    }

    @Test func redisExpiresEntriesNatively() throws {
        let store = try fixture.open(clock: SystemClock())
        defer { store.close() }
        let cache = try store.cache(
            "flash", key: String.self, value: String.self,
            policy: NamespacePolicy(expiration: .after(.milliseconds(300))).withoutStaleWindow())
        try cache.set("x", for: "k")
        let raw = try fixture.connection()
        // The server holds the expiry itself (a native PTTL), not only the entry's record.
        let pttl = try raw.command(["PTTL", "cachedeck:e:flash:1:k"]).integer ?? -2
        #expect((1...300).contains(pttl))
        #expect(eventually { (try? raw.command(["EXISTS", "cachedeck:e:flash:1:k"]).integer) == 0 } != nil)
        #expect(try cache.get("k") == nil)
    }

    /// A set replaces the whole entry: a rewrite without expiry or tags leaves no old `x`, `s`,
    /// `t`, TTL or tag-set membership behind; a namespace hash deleted since the handle opened
    /// is made again, policy recorded and listed.
    @Test func aSetReplacesTheWholeEntryAndMakesAGoneNamespaceAgain() throws {
        let store = try fixture.open()
        defer { store.close() }
        let cache = try store.cache(
            "rewrites", key: String.self, value: Int.self, policy: NamespacePolicy(expiration: .never))
        let raw = try fixture.connection()
        try cache.set(1, for: "k", expiration: .after(.seconds(60)), tags: ["t1"])
        #expect(try raw.command(["HEXISTS", "cachedeck:e:rewrites:1:k", "s"]).integer == 1)
        try cache.set(2, for: "k")
        let fields = try raw.command(["HKEYS", "cachedeck:e:rewrites:1:k"]).array?.compactMap(\.string)
        #expect(fields.map(Set.init) == ["v", "c", "w"])
        #expect(try raw.command(["PTTL", "cachedeck:e:rewrites:1:k"]).integer == -1)
        #expect(try raw.command(["SISMEMBER", "cachedeck:t:rewrites:1:t1", "k"]).integer == 0)
        #expect(try cache.get("k") == 2)

        try raw.command(["DEL", "cachedeck:n:rewrites"])
        try raw.command(["SREM", "cachedeck:namespaces", "rewrites"])
        try cache.set(3, for: "k")
        let record = try raw.command(["HMGET", "cachedeck:n:rewrites", "generation", "policy"]).array
        #expect(record?.first?.integer == 1)
        #expect(record?.last?.string == RedisNamespaceKeys.json(cache.policy))
        #expect(try raw.command(["SISMEMBER", "cachedeck:namespaces", "rewrites"]).integer == 1)
        #expect(try cache.get("k") == 3)
    }

    @Test func aClearUnlinksEveryKeyOfTheOldGenerationEvenOneNotUTF8() throws {
        let store = try fixture.open()
        defer { store.close() }
        let bricks = try store.dataCache("bricks", key: String.self)
        try bricks.set((0..<2500).map { (key: "b\($0)", value: Data([1])) }, tags: ["red"])
        // A name no CacheCore write makes, planted under the generation by another tool.
        let hostile = Data("cachedeck:e:bricks:1:".utf8) + Data([0xFF, 0xFE])
        let raw = try fixture.connection()
        try raw.command(["HSET", RedisArgument(hostile), "v", "x"])
        // The planted name counts: it was a key of the generation, and it is gone.
        #expect(try bricks.removeAll() == 2501)
        #expect(try raw.command(["EXISTS", RedisArgument(hostile)]).integer == 0)
        #expect(try raw.command(["KEYS", "cachedeck:[et]:bricks:1:*"]).array?.isEmpty == true)
        #expect(try bricks.count() == 0)
    }

    /// A get reads the generation the namespace record names, not the one the store last saw,
    /// even while an entry of the old one is still there (another host's clear, its unlink
    /// not done yet).
    @Test func aGetAfterAnotherHostsClearReadsTheNewGeneration() throws {
        let reader = try fixture.open()
        let writer = try fixture.open()
        defer {
            reader.close()
            writer.close()
        }
        let onReader = try reader.dataCache("menu", key: String.self)
        let onWriter = try writer.dataCache("menu", key: String.self)
        try onWriter.set(Data("before".utf8), for: "soup")
        #expect(try onReader.get("soup") == Data("before".utf8))
        try onWriter.removeAll()
        try fixture.connection().command(["HSET", "cachedeck:e:menu:1:soup", "v", "before", "c", "1", "w", "1"])
        #expect(try onReader.get("soup") == nil)
        try onWriter.set(Data("after".utf8), for: "soup")
        #expect(try onReader.get("soup") == Data("after".utf8))
    }

    @Test func aNewVersionTakesTheNamespaceOverAndUnlinksTheOldEntries() throws {
        let old = try fixture.open()
        let new = try fixture.open()
        defer {
            old.close()
            new.close()
        }
        let v1 = try old.cache("sets", key: Int.self, value: String.self, policy: NamespacePolicy().version("1"))
        for index in 0..<50 { try v1.set("v1-\(index)", for: index) }
        let v2 = try new.cache("sets", key: Int.self, value: String.self, policy: NamespacePolicy().version("2"))
        #expect(try v2.get(1) == nil)
        #expect(try v1.get(1) == nil)
        let raw = try fixture.connection()
        let left = try raw.command(["SCAN", "0", "MATCH", "cachedeck:e:sets:1:*", "COUNT", "1000"])
        #expect(left.array?[1].array?.isEmpty == true)
        #expect(try raw.command(["HGET", "cachedeck:n:sets", "version"]).string == "2")
        // The old version's writes are dropped (it would never read them), not mixed in.
        try v1.set("late", for: 1)
        #expect(try v2.get(1) == nil)
        try v2.set("v2", for: 1)
        #expect(try v2.get(1) == "v2")
    }

    @Test func tagsPrefixesKeysNamespacesAndEverything() throws {
        let store = try fixture.open()
        defer { store.close() }
        let guests = try store.cache("guests", key: String.self, value: Int.self)
        try guests.set(1, for: "acme_1", tags: ["tenant:acme"])
        try guests.set(2, for: "acme_2", tags: ["tenant:acme", "vip"])
        try guests.set(3, for: "beta_1", tags: ["tenant:beta"])
        try guests.set(4, for: "acme_3", tags: ["tenant:acme"])
        try guests.set(4, for: "acme_3")  // rewritten without the tag: a tag invalidation spares it
        #expect(try guests.invalidate(tag: "tenant:acme").totalRemoved == 2)
        #expect(try guests.get("acme_1") == nil && guests.get("acme_2") == nil)
        #expect(try guests.get("acme_3") == 4 && guests.get("beta_1") == 3)

        try guests.set(5, for: "beta_2")
        try guests.set(6, for: "gamma")
        #expect(try guests.invalidate(prefix: "beta_").totalRemoved == 2)
        #expect(try guests.get("gamma") == 6 && guests.get("beta_1") == nil)
        #expect(try guests.invalidate(["gamma", "nobody"]).totalRemoved == 1)
        #expect(try guests.remove("acme_3"))
        #expect(try !guests.remove("acme_3"))

        let other = try store.cache("other", key: Int.self, value: Int.self)
        for index in 0..<20 { try guests.set(index, for: "g\(index)") }
        try other.set(1, for: 1)
        #expect(try guests.count() == 20)
        #expect(try guests.removeAll() == 20)
        #expect(try guests.count() == 0)
        #expect(try other.get(1) == 1)
        try guests.set(1, for: "again")
        #expect(try store.clear() == 2)
        #expect(try other.get(1) == nil && guests.get("again") == nil)
        // Tag, prefix and keys (clearing everything names no namespace, so counts nowhere).
        #expect(store.statistics().namespaces["guests"]?.invalidations == 5)
    }

    @Test func dependencyRulesAndEventsApplyAsInAFileStore() throws {
        var rules = InvalidationRules()
        rules.rule(
            when: .key(namespace: "planner", key: "guests_{tenant}"),
            invalidate: [.key(namespace: "stats", key: "guest_stats_{tenant}")])
        rules.event("guestCreated", invalidates: [.key(namespace: "planner", key: "guests_{tenant}")])
        let store = try fixture.open(rules: rules)
        defer { store.close() }
        let planner = try store.cache("planner", key: String.self, value: Int.self)
        let stats = try store.cache("stats", key: String.self, value: Int.self)
        try planner.set(1, for: "guests_acme")
        try stats.set(2, for: "guest_stats_acme")
        try stats.set(3, for: "guest_stats_beta")
        let result = try store.invalidate(event: "guestCreated", parameters: ["tenant": "acme"])
        #expect(result.totalRemoved == 2)
        #expect(result.removals.last?.cause == .key(namespace: "planner", key: "guests_acme"))
        #expect(try stats.get("guest_stats_acme") == nil && stats.get("guest_stats_beta") == 3)
    }

    @Test func loadersRunOnceAndServeStaleIfError() async throws {
        let store = try fixture.open()
        defer { store.close() }
        let policy = NamespacePolicy(expiration: .after(.seconds(10)), staleWindow: .seconds(100))
        let cache = try store.cache("profiles", key: String.self, value: String.self, policy: policy)
        let calls = Counter()
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await cache.value(for: "u1") { key in
                        calls.increment()
                        try await Task.sleep(for: .milliseconds(20))
                        return "loaded \(key)"
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: "loaded u1", count: 8))
        #expect(calls.value == 1)
        fixture.clock.advance(by: .seconds(11))
        struct Down: Error {}
        let read = try await cache.read("u1") { _ in throw Down() }
        #expect(read.value == "loaded u1" && read.isStale)
        await #expect(throws: Down.self) { try await cache.value(for: "other") { _ in throw Down() } }
        #expect(store.statistics().namespaces["profiles"]?.loadFailures == 2)
    }

    @Test func asyncHandlesMemoryOnlyNamespacesAndReadOnlyStores() async throws {
        let store = try fixture.open()
        defer { store.close() }
        let parts = try store.cache("parts", key: String.self, value: String.self).async
        try await parts.set("brick", for: "3001")
        #expect(try await parts.get("3001") == "brick")
        #expect(try await parts.remove("3001"))
        let local = try store.cache("local", key: Int.self, value: Int.self, policy: .memoryOnly)
        try local.set(1, for: 1)
        #expect(try local.get(1) == 1)
        #expect(try fixture.connection().command(["EXISTS", "cachedeck:e:local:1:1"]).integer == 0)  // never on the server
        #expect(try store.invalidate(.namespace("local")).totalRemoved == 1)

        try store.cache("shared", key: Int.self, value: Int.self).set(7, for: 7)
        var readOnly = fixture.options()
        readOnly.readOnly = true
        let reader = try RedisStore(url: fixture.server.url, options: readOnly)
        defer { reader.close() }
        let shared = try reader.cache("shared", key: Int.self, value: Int.self)
        #expect(try shared.get(7) == 7)
        #expect {
            try shared.set(8, for: 8)
        } throws: { isOneLine($0) { if case .readOnly = $0 { true } else { false } } }
    }

    @Test func anInterruptedClearIsFinishedBySweepRetired() throws {
        let store = try fixture.open()
        defer { store.close() }
        let cache = try store.cache("mail", key: Int.self, value: String.self)
        for index in 0..<30 { try cache.set("m\(index)", for: index, tags: ["inbox"]) }
        // What a process that stopped right after moving the generation leaves behind.
        let raw = try fixture.connection()
        _ = try raw.command(["HINCRBY", "cachedeck:n:mail", "generation", "1"])
        _ = try raw.command(["SADD", "cachedeck:retired", "mail:1"])
        #expect(try cache.get(1) == nil)
        #expect(try store.sweepRetired() == 30)
        #expect(try raw.command(["DBSIZE"]).integer ?? 0 < 10)
        #expect(try raw.command(["SCARD", "cachedeck:retired"]).integer == 0)
    }

    @Test func whatAServerCannotDoIsRefusedClearly() throws {
        let store = try fixture.open()
        defer { store.close() }
        #expect {
            try store.cache("limited", key: Int.self, value: Int.self, policy: NamespacePolicy().keepingNewest(10))
        } throws: { isOneLine($0) { if case .unsupported = $0 { true } else { false } } }
        #expect {
            try store.cache("behind", key: Int.self, value: Int.self, policy: .performance)
        } throws: { isOneLine($0) { if case .unsupported = $0 { true } else { false } } }
        let cache = try store.cache("plain", key: Int.self, value: Int.self)
        try cache.set(1, for: 1)
        #expect {
            try cache.hitCount(for: 1)
        } throws: { isOneLine($0) { if case .unsupported = $0 { true } else { false } } }
        #expect {
            try RedisStore(url: fixture.server.url, options: StoreOptions(maxEntries: 10))
        } throws: { isOneLine($0) { if case .unsupported = $0 { true } else { false } } }
    }

    @Test func countersAndClientsAreReadableByOtherProcesses() throws {
        let app = try fixture.open()
        let console = try fixture.open()
        defer {
            app.close()
            console.close()
        }
        let cache = try app.cache("hits", key: Int.self, value: Int.self, policy: .hybrid)
        try cache.set(1, for: 1)
        try app.synchronize()  // its own write's push dropped its copy
        _ = try cache.get(1)  // from the server, copied into memory
        _ = try cache.get(1)  // from memory
        _ = try cache.get(2)
        try app.flushTelemetry()
        let shared = try console.sharedStatistics().namespaces["hits"]
        #expect(shared == CacheStatistics(memoryHits: 1, diskHits: 1, misses: 1, sets: 1))
        let clients = try console.clients()
        #expect(clients.count == 2)
        let appClient = clients.first { $0.id == app.clientID }
        #expect(appClient?.host == ProcessInfo.processInfo.hostName || appClient?.host.isEmpty == false)
        #expect(appClient?.pid == getpid() && appClient?.isLive == true)
        app.close()
        #expect(try console.clients().first { $0.id == app.clientID }?.stoppedAt != nil)
        #expect {
            try cache.get(2)
        } throws: { isOneLine($0) { if case .cannotOpen = $0 { true } else { false } } }
    }
}

/// A thread-safe call counter.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
