import CacheDeckTestSupport
import Foundation
import Synchronization
import Testing

@testable import CacheCore
@testable import CacheCoreRedis

/// `RedisStore` on a real Redis Cluster (issue #28): each namespace in one slot, namespaces
/// over every primary, every call routed by slot through a live reshard and a failover.
/// The cluster's own checks run every script: a key outside the slot of the script's
/// declared keys, or one a migration has moved, fails the call.
@Suite("RedisStore on a cluster", .serialized, .enabled(if: redisAvailable), .sharedCluster)
struct RedisClusterStoreTests {
    let cluster: RedisCluster
    /// Each test's own prefix, so the tests share the cluster and nothing else.
    let prefix = "c\(UUID().uuidString.prefix(8)):"

    init() throws { cluster = try SharedCluster.cluster() }

    func open(clock: any CacheClock = ManualClock()) throws -> RedisStore {
        var options = StoreOptions(clock: clock)
        options.statistics.telemetryInterval = .seconds(3600)
        options.statistics.metrics = .off
        return try RedisStore(url: cluster.url, options: options, redis: RedisStoreOptions(prefix: prefix, environment: [:]))
    }

    /// The keys under the test's prefix on each primary, by port (`KEYS` is fine on a test's cluster).
    func keysByPrimary() throws -> [Int: [String]] {
        let router = try ClusterRouter(
            seeds: try ClusterURL.seeds(cluster.url, environment: [:]), poolSize: 1, timeout: .seconds(5))
        var found: [Int: [String]] = [:]
        for address in router.primaries {
            let reply = try router.pool(address).withConnection { try $0.command(["KEYS", RedisArgument(prefix + "*")]) }
            found[address.port] = (reply.array ?? []).compactMap(\.string)
        }
        return found
    }

    /// The `{…}` of `name` (its hash tag, braces included).
    static func hashTag(of name: String) -> String? {
        guard let open = name.firstIndex(of: "{"), let close = name[open...].firstIndex(of: "}") else { return nil }
        return String(name[open...close])
    }

    @Test func eachNamespaceLivesInOneSlotAndNamespacesSpreadOverThePrimaries() throws {
        let store = try open()
        defer { store.close() }
        // Names that would break a tag or a key name, beside plain ones.
        let names = (0..<12).map { "ns\($0)" } + ["a{b}c", "x:y%z", "}{"]
        for name in names {
            let cache = try store.cache(name, key: String.self, value: String.self)
            try cache.set((0..<20).map { (key: "k\($0)", value: "\(name)/\($0)") }, tags: ["t:\(name.count)"])
            #expect(try cache.get("k7") == "\(name)/7" && cache.count() == 20)
        }
        let byPrimary = try keysByPrimary()
        var homes: [String: Set<Int>] = [:]
        for (port, names) in byPrimary {
            for name in names {
                homes[try #require(Self.hashTag(of: name), "\(name)"), default: []].insert(port)
            }
        }
        // Every namespace's keys (hash, entries, tag sets) on one primary; the store-wide keys too.
        #expect(homes.count == names.count + 1 && homes.values.allSatisfy { $0.count == 1 })
        #expect(Set(homes.values.flatMap { $0 }).count == 3, "namespaces on every primary: \(homes)")
        #expect(try store.namespaceNames() == names.sorted())
    }

    @Test func everyStoreCallWorksOnTheCluster() throws {
        let clock = ManualClock()
        let store = try open(clock: clock)
        defer { store.close() }
        let tiles = try store.cache("tiles", key: String.self, value: String.self)
        let other = try store.cache("other", key: Int.self, value: Int.self)
        try tiles.set((0..<300).map { (key: "z\($0 % 3):\($0)", value: "v\($0)", tags: $0 % 2 == 0 ? ["even"] : []) })
        try other.set((0..<50).map { (key: $0, value: $0 * 2) })
        #expect(try tiles.count() == 300 && other.get(7) == 14)
        // A rewrite that changes an entry's tags takes it out of the old tag's set.
        try tiles.set("w", for: "z0:0", tags: ["odd"])
        #expect(try tiles.remove("z1:1") && !tiles.remove("z1:1"))
        #expect(try tiles.invalidate(tag: "even").totalRemoved == 149)
        #expect(try tiles.invalidate(prefix: "z2:").totalRemoved == 50)
        #expect(try tiles.invalidate(["z1:7", "z1:13", "missing"]).totalRemoved == 2)
        #expect(try tiles.count() == 300 - 1 - 149 - 50 - 2 && tiles.get("z0:0") == "w")
        // Expiry is the server's: an entry past its stale window is gone on its node.
        try tiles.set("soon", for: "ttl", expiration: .after(.milliseconds(1)))
        clock.advance(by: .seconds(1))
        #expect(try tiles.get("ttl") == nil)
        #expect(try tiles.remove("ttl"))  // still on the server through its stale window
        // A new version takes the namespace over; its old entries go.
        let renewed = try store.cache(
            "other", key: Int.self, value: Int.self, policy: NamespacePolicy(version: "2"))
        #expect(try renewed.count() == 0 && renewed.get(7) == nil)
        #expect(try tiles.removeAll() == 98 && tiles.count() == 0)
        try tiles.set("back", for: "a")
        #expect(try store.clear() == 1 && tiles.get("a") == nil)
        #expect(try store.sweepRetired() == 0)
    }

    @Test func callsGoOnThroughALiveReshard() throws {
        let store = try open()
        defer { store.close() }
        let caches = try (0..<40).map { try store.cache("r\($0)", key: Int.self, value: String.self) }
        for cache in caches { try cache.set((0..<30).map { (key: $0, value: "v0") }, tags: ["all"]) }
        let router = try ClusterRouter(
            seeds: try ClusterURL.seeds(cluster.url, environment: [:]), poolSize: 1, timeout: .seconds(5))
        let from = router.primaries[0].port
        let to = router.primaries[1].port
        let failures = Mutex<[String]>([])
        let resharding = Atomic(true)
        let cluster = self.cluster
        let reshard = Thread {
            defer { resharding.store(false, ordering: .releasing) }
            do { _ = try cluster.reshard(slots: 2000, fromPort: from, toPort: to) } catch {
                failures.withLock { $0.append("reshard: \(error)") }
            }
        }
        reshard.start()
        var round = 0
        // Writes, reads and removals by key and tag go on throughout; none may fail or read wrong.
        while resharding.load(ordering: .acquiring) || round < 2 {
            round += 1
            for (index, cache) in caches.enumerated() {
                do {
                    try cache.set((0..<30).map { (key: $0, value: "v\(round)") }, tags: ["all"])
                    let read = try cache.get(round % 30)
                    if read != "v\(round)" { failures.withLock { $0.append("r\(index) read \(read ?? "nil")") } }
                    if try !cache.remove(round % 30) { failures.withLock { $0.append("r\(index) remove") } }
                    if round % 5 == 0, try cache.invalidate(tag: "all").totalRemoved != 29 {
                        failures.withLock { $0.append("r\(index) tag") }
                    }
                } catch {
                    failures.withLock { $0.append("r\(index): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let moved = try ClusterRouter(
            seeds: try ClusterURL.seeds(cluster.url, environment: [:]), poolSize: 1, timeout: .seconds(5))
        #expect(moved.topology.nodes.first { $0.address.port == to }!.slotCount > 5461)
    }

    @Test func nearCachesOnTwoHostsFollowChangesOnEveryPrimary() throws {
        let a = try open(clock: SystemClock())
        let b = try open(clock: SystemClock())
        defer {
            a.close()
            b.close()
        }
        let names = (0..<9).map { "near\($0)" }
        let writers = try names.map { try a.cache($0, key: String.self, value: String.self, policy: .hybrid) }
        let readers = try names.map { try b.cache($0, key: String.self, value: String.self, policy: .hybrid) }
        for writer in writers { try writer.set("v1", for: "k") }
        for reader in readers { #expect(try reader.get("k") == "v1") }  // now held in b's memory
        for writer in writers { try writer.set("v2", for: "k") }
        try b.synchronize()
        #expect(try readers.map { try $0.get("k") } == Array(repeating: "v2", count: names.count))
        #expect(b.isListening)
    }

    @Test func aFailoverCostsTheCallsInFlightOneLineThenTheNewPrimaryServesAndPushes() throws {
        let store = try open(clock: SystemClock())
        let reader = try open(clock: SystemClock())
        defer {
            store.close()
            reader.close()
        }
        let cache = try store.cache("failover", key: String.self, value: String.self, policy: .hybrid)
        let near = try reader.cache("failover", key: String.self, value: String.self, policy: .hybrid)
        try cache.set("before", for: "k")
        #expect(try near.get("k") == "before")
        let slot = ClusterSlot.of(Array(store.keys.namespace("failover").utf8))
        let old = try cluster.primaryPort(ofSlot: slot)
        // Until replicated, a write may be lost with its primary: wait for the replica's copy.
        _ = try #require(cluster.node(port: old)).cli("WAIT", "1", "5000")
        try cluster.failOver(primaryPort: old, slot: slot)
        var errors: [any Error] = []
        var written = false
        let deadline = ContinuousClock.now + .seconds(20)
        while !written && ContinuousClock.now < deadline {
            do {
                #expect(try cache.get("k") != nil)
                try cache.set("after", for: "k")
                written = true
            } catch {
                errors.append(error)
            }
        }
        #expect(written)
        #expect(errors.allSatisfy { isOneLine($0) { _ in true } }, "\(errors)")
        // The reader listens to the promoted primary now: its copy of "before" is gone.
        var synchronized = false
        while !synchronized && ContinuousClock.now < deadline { synchronized = (try? reader.synchronize()) != nil }
        #expect(synchronized && reader.isListening)
        #expect(try near.get("k") == "after" && cache.count() == 1)
    }

    @Test func aPrefixWithAHashTagIsRefusedInOneLine() throws {
        #expect {
            try RedisStore(url: cluster.url, redis: RedisStoreOptions(prefix: "a{b}:", environment: [:]))
        } throws: { isOneLine($0) { if case .unsupported = $0 { true } else { false } } }
    }
}
