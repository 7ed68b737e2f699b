@testable import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Synchronization
import Testing

@testable import CacheCore

/// The cache is an optimisation: while Redis is down, a loader read is answered by the loader.
@Suite("RedisStore: loaders while the server is down", .enabled(if: redisAvailable))
struct RedisDownLoaderTests {
    let fixture: RedisFixture
    init() throws { fixture = try RedisFixture() }

    @Test func aLoaderReadCallsTheLoaderInsteadOfThrowingUnreachable() async throws {
        let store = try fixture.open()
        defer { store.close() }
        let cache = try store.cache("users", key: String.self, value: String.self)
        try cache.set("cached", for: "a")
        #expect(try await cache.value(for: "a") { _ in "loaded" } == "cached")

        fixture.server.stop()
        let calls = Atomic(0)
        let value = try await cache.value(for: "a") { key in
            calls.add(1, ordering: .relaxed)
            return "loaded \(key)"
        }
        #expect(value == "loaded a" && calls.load(ordering: .relaxed) == 1)
        // A plain read still says the server is down, and a failing loader's own error surfaces.
        #expect(throws: CacheError.self) { try cache.get("a") }
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await cache.value(for: "b") { _ in throw Refused() } }
    }
}
