@testable import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

@Suite("RedisStore: near caches kept coherent by push", .enabled(if: redisAvailable))
struct RedisCoherenceTests {
    let fixture: RedisFixture
    init() throws { fixture = try RedisFixture() }

    @Test func anotherStoresSetDropsTheCopyByPush() throws {
        try fixture.withTwoHosts { a, b in
            let onA = try a.cache("colors", key: Int.self, value: String.self, policy: .hybrid)
            let onB = try b.cache("colors", key: Int.self, value: String.self, policy: .hybrid)
            try onA.set("red", for: 1)
            try b.synchronize()  // a's push reached b (a read racing it would not keep its copy)
            #expect(try onB.get(1) == "red")
            #expect(onB.memoryUsage.entries == 1)
            // b now answers from memory, without the server, until a push says otherwise.
            try onA.set("blue", for: 1)
            let delay = eventually { onB.memoryUsage.entries == 0 }
            #expect(try onB.get(1) == "blue")
            #expect(delay.map { $0 < .milliseconds(50) } == true)
        }
    }

    @Test func removalsClearsAndOutsideChangesReachEveryNearCache() throws {
        try fixture.withTwoHosts { a, b in
            let onA = try a.cache("parts", key: String.self, value: Int.self, policy: .hybrid)
            let onB = try b.cache("parts", key: String.self, value: Int.self, policy: .hybrid)
            for index in 0..<10 { try onA.set(index, for: "p\(index)", tags: index < 3 ? ["t"] : []) }
            try b.synchronize()
            for index in 0..<10 { #expect(try onB.get("p\(index)") == index) }
            #expect(onB.memoryUsage.entries == 10)

            try onA.remove("p9")
            #expect(eventually { onB.memoryUsage.entries == 9 } != nil)
            try onA.invalidate(tag: "t")
            #expect(eventually { onB.memoryUsage.entries == 6 } != nil)
            #expect(try onB.get("p0") == nil)
            // The console (or redis-cli) deleting a key directly.
            try fixture.server.cli("DEL", "cachedeck:e:parts:1:p8")
            #expect(eventually { onB.memoryUsage.entries <= 5 } != nil)
            #expect(try onB.get("p8") == nil)
            try onA.removeAll()
            #expect(eventually { onB.memoryUsage.entries == 0 } != nil)
            #expect(try onB.get("p5") == nil)
            for index in 0..<3 { try onB.set(index, for: "q\(index)") }
            try b.synchronize()
            #expect(onB.memoryUsage.entries == 0)  // its own writes come back too (tolerated)
            for index in 0..<3 { #expect(try onB.get("q\(index)") == index) }
            #expect(onB.memoryUsage.entries == 3)
            try fixture.server.cli("FLUSHDB")
            #expect(eventually { onB.memoryUsage.entries == 0 } != nil)
        }
    }

    @Test func aSeparateProcessInvalidatesThisProcessesNearCache() throws {
        let store = try fixture.open(clock: SystemClock())
        defer { store.close() }
        let cache = try store.cache("shared", key: String.self, value: String.self, policy: .hybrid)
        try cache.set("mine", for: "k")
        try store.synchronize()
        #expect(try cache.get("k") == "mine")
        #expect(cache.memoryUsage.entries == 1)
        let helper = try HelperProcess(["redis-set", fixture.server.url, "shared", "k", "theirs"])
        let exit = try helper.waitForExit()
        #expect(exit.succeeded, "\(exit.stderr)")
        #expect(eventually { cache.memoryUsage.entries == 0 } != nil)
        #expect(try cache.get("k") == "theirs")
    }

    @Test func aLostInvalidationConnectionFlushesNearCachesAndResubscribes() throws {
        let store = try fixture.open(clock: SystemClock())
        defer { store.close() }
        let cache = try store.cache("c", key: Int.self, value: Int.self, policy: .hybrid)
        try cache.set(1, for: 1)
        try store.synchronize()
        #expect(try cache.get(1) == 1)
        #expect(cache.memoryUsage.entries == 1)
        try fixture.server.cli("CLIENT", "KILL", "TYPE", "pubsub")
        #expect(eventually { cache.memoryUsage.entries == 0 } != nil)
        #expect(eventually { store.isListening } != nil)
        // Pushes work again after the reconnect.
        #expect(try cache.get(1) == 1)
        let other = try fixture.open(clock: SystemClock())
        defer { other.close() }
        try other.cache("c", key: Int.self, value: Int.self, policy: .hybrid).set(2, for: 1)
        #expect(eventually { cache.memoryUsage.entries == 0 } != nil)
        #expect(try cache.get(1) == 2)
    }
}

@Suite("RedisStore: faults", .enabled(if: redisAvailable))
struct RedisFaultTests {
    @Test func aServerKilledMidWayLeavesTheMemoryTierAndOneLineErrors() throws {
        let fixture = try RedisFixture()
        let store = try fixture.open(
            clock: SystemClock(), redis: RedisStoreOptions(timeout: .milliseconds(300), environment: [:]))
        defer { store.close() }
        let cache = try store.cache("c", key: Int.self, value: String.self, policy: .hybrid)
        try cache.set("one", for: 1)
        try store.synchronize()
        #expect(try cache.get(1) == "one")
        #expect(cache.memoryUsage.entries == 1)
        fixture.server.stop()
        #expect(eventually { !store.isListening } != nil)
        // Within its TTL the memory tier keeps answering; the server's absence is a clean error.
        #expect(try cache.get(1) == "one")
        #expect {
            try cache.get(2)
        } throws: { isOneLine($0) { if case .unreachable = $0 { true } else { false } } }
        #expect {
            try cache.set("two", for: 2)
        } throws: { isOneLine($0) { if case .unreachable = $0 { true } else { false } } }
    }

    @Test func brokenPoolConnectionsAreReplaced() throws {
        let fixture = try RedisFixture()
        let store = try fixture.open()
        defer { store.close() }
        let cache = try store.cache("c", key: Int.self, value: Int.self)
        try cache.set(1, for: 1)
        try fixture.server.cli("CLIENT", "KILL", "TYPE", "normal")
        // The command on the killed connection may fail (nobody knows whether it ran); the
        // next one reconnects.
        _ = try? cache.get(1)
        #expect(try cache.get(1) == 1)
    }

    @Test func aServerThatIsDownOrABadURLFailsTheOpenInOneLine() throws {
        let fixture = try RedisFixture()
        let url = fixture.server.url
        fixture.server.stop()
        #expect {
            try RedisStore(url: url)
        } throws: { isOneLine($0) { if case .unreachable = $0 { true } else { false } } }
        #expect {
            try RedisStore(url: "http://localhost:6379")
        } throws: { isOneLine($0) { if case .cannotOpen = $0 { true } else { false } } }
    }

    @Test func aWrongOrMissingPasswordIsRefused() throws {
        let fixture = try RedisFixture(password: "s3cret")
        let port = fixture.server.port
        for url in ["redis://:wrong@127.0.0.1:\(port)/0", "redis://127.0.0.1:\(port)/0"] {
            #expect {
                try RedisStore(url: url, redis: RedisStoreOptions(environment: [:]))
            } throws: { error in
                isOneLine(error) { if case .authenticationFailed = $0 { true } else { false } }
                    && !"\(error)".contains("s3cret")
            }
        }
        let viaEnvironment = try RedisStore(
            url: "redis://127.0.0.1:\(port)/0", redis: RedisStoreOptions(environment: ["REDISCLI_AUTH": "s3cret"]))
        try viaEnvironment.cache("c", key: Int.self, value: Int.self).set(1, for: 1)
        viaEnvironment.close()
    }

    @Test func outOfMemoryRefusesTheWriteAndKeepsWhatWasStored() throws {
        let fixture = try RedisFixture(maxMemory: "2mb")  // an empty server uses about 1 MB
        let store = try fixture.open()
        defer { store.close() }
        let cache = try store.dataCache("big", key: Int.self)
        let value = Data(repeating: 7, count: 100_000)
        var stored = 0
        var failure: (any Error)?
        for index in 0..<200 {
            do {
                try cache.set(value, for: index)
                stored += 1
            } catch {
                failure = error
                break
            }
        }
        let error = try #require(failure)
        #expect(isOneLine(error) { if case .serverOutOfMemory = $0 { true } else { false } }, "\(error)")
        #expect(try cache.get(stored) == nil)
        if stored > 0 { #expect(try cache.get(0) == value) }
        #expect(try cache.remove(0) == (stored > 0))  // removals still run under maxmemory
    }
}
