import CacheCore
import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

private struct Guest: CacheEntity, Equatable {
    static let cacheNamespace = "guests"
    let id: Int
    let name: String
    var cacheKey: Int { id }
}

/// The same app code on `any CacheStoring`: a file store and a Redis store behave alike.
@Suite("CacheStoring: one app, either store", .enabled(if: redisAvailable))
struct CacheStoringTests {
    let server: RedisServer
    let folder = TemporaryFolder()

    init() throws { server = try RedisServer() }

    static var rules: InvalidationRules {
        var rules = InvalidationRules()
        rules.event("guestCreated", invalidates: [.key(namespace: "counts", key: "guests")])
        return rules
    }

    /// What an app does, written once against the protocol (defaults come from its extension).
    func exercise(_ store: any CacheStoring) throws {
        let counts = try store.cache("counts", key: String.self, value: Int.self)
        try counts.set(3, for: "guests")
        try store.dataCache("blobs", key: String.self).set(Data([1, 2]), for: "b")
        try store.entities(Guest.self).put(Guest(id: 1, name: "Ada"))
        let coded = try store.cache("coded", key: Int.self, coder: JSONValueCoder<String>())
        try coded.set("x", for: 1)
        #expect(try counts.get("guests") == 3)
        #expect(try coded.get(1) == "x")
        #expect(try store.entities(Guest.self).get(1)?.name == "Ada")

        #expect(try store.invalidate(event: "guestCreated").totalRemoved == 1)
        #expect(try counts.get("guests") == nil)
        #expect(try store.invalidate(.namespace("blobs")).totalRemoved == 1)
        #expect(store.statistics().namespaces["counts"]?.sets == 1)
        try store.flush()
        try store.close()
        try store.close()
    }

    @Test func theSameCodeRunsOnAFileAndOnRedis() throws {
        let file = try CacheStore(path: folder.file(), options: StoreOptions(invalidationRules: Self.rules))
        try exercise(file)
        var options = StoreOptions(invalidationRules: Self.rules)
        options.statistics.metrics = .off
        try exercise(try RedisStore(url: server.url, options: options))
    }

    /// The same app from async code (an actor's repository): handles' async faces, the
    /// store's async invalidation, flush and close, through the protocol.
    func exerciseAsync(_ store: any CacheStoring) async throws {
        let counts = try store.cache("counts", key: String.self, value: Int.self).async
        try await counts.set(3, for: "guests", tags: ["list"])
        try await counts.set([CacheItem(key: "tables", value: 9, tags: ["list"])])
        #expect(try await counts.get("guests") == 3 && counts.cache.contains("tables"))
        #expect(try await counts.remove("tables"))
        #expect(try await store.async.invalidate(event: "guestCreated").totalRemoved == 1)
        #expect(try await counts.get("guests") == nil)
        try await counts.set(4, for: "guests")
        try await store.async.flush()
        try await store.async.close()
        try await store.async.close()
        await #expect(throws: CacheError.self) { try await counts.get("guests") }
    }

    @Test func theAsyncFaceRunsOnAFileAndOnRedis() async throws {
        try await exerciseAsync(
            try CacheStore(path: folder.file(), options: StoreOptions(invalidationRules: Self.rules)))
        var options = StoreOptions(invalidationRules: Self.rules)
        options.statistics.metrics = .off
        try await exerciseAsync(try RedisStore(url: server.url, options: options))
    }

    @Test func whatRedisRefusesStillThrowsThroughTheProtocol() throws {
        let store: any CacheStoring = try RedisStore(url: server.url)
        defer { try? store.close() }
        #expect(throws: CacheError.self) {
            try store.cache("mail", key: Int.self, value: String.self, policy: NamespacePolicy().keepingNewest(10))
        }
    }
}
