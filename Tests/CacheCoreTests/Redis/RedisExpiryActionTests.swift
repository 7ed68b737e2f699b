@testable import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// TTL actions on Redis, as ExpiryActionTests on a file: expire now, set a TTL, extend it —
/// previewed, audited, stopped between batches and undone.
/// Every test runs on a standalone server and on a cluster.
@Suite("RedisAdmin: TTL actions", .enabled(if: redisAvailable), .sharedCluster)
struct RedisExpiryActionTests {
    /// 2,500 entries `t<i>` expiring in an hour without a stale window, and `never`.
    func tiles(_ store: RedisStore) throws -> Cache<String, Int> {
        let tiles = try store.cache(
            "tiles", key: String.self, value: Int.self,
            policy: NamespacePolicy.default.expiring(.after(.seconds(3600))).withoutStaleWindow())
        try tiles.set((0..<2500).map { (key: "t\($0)", value: $0) }, tags: [])
        try tiles.set(-1, for: "never", expiration: .never)
        return tiles
    }

    func field(_ fixture: RedisFixture, _ key: String, _ name: String, namespace: String = "tiles") throws -> Int64? {
        Int64(try fixture.cli("HGET", entry(fixture, key, namespace: namespace), name))
    }

    /// The key of entry `key` of generation 1 of `namespace`.
    func entry(_ fixture: RedisFixture, _ key: String, namespace: String = "tiles") -> String {
        fixture.keys.entries(namespace) + "1:" + key
    }

    @Test(arguments: RedisDeployment.allCases)
    func expireNowKeepsEachEntrysStaleWindowLength(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let tiles = try store.cache(
            "tiles", key: String.self, value: Int.self,
            policy: NamespacePolicy(expiration: .after(.seconds(3600)), staleWindow: .seconds(300)))
        try tiles.set(1, for: "a")
        _ = try store.admin.run(.expiry(selector: .key(namespace: "tiles", key: "a"), change: .expireNow))
        let (expires, stale) = (try field(fixture, "a", "x"), try field(fixture, "a", "s"))
        #expect(expires != nil && stale.flatMap { s in expires.map { s - $0 } } == 300_000)
        #expect(try tiles.get("a") == nil)
    }

    @Test(arguments: RedisDeployment.allCases)
    func expireNowHidesWhatItSelectsAndItsUndoBringsItBack(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let tiles = try tiles(store)
        let admin = store.admin
        let target = AdminTarget.expiry(selector: .prefix(namespace: "tiles", prefix: "t1"), change: .expireNow)
        #expect(try admin.preview(target).entries == 1111)
        let outcome = try admin.run(target)
        #expect(outcome.removed == 1111 && outcome.isUndoable && !outcome.isCancelled)
        #expect(try tiles.get("t1") == nil && tiles.get("t12") == nil && tiles.get("t2") == 2)
        #expect(try tiles.count() == 2501 - 1111, "counted as expired, not removed")
        // Kept (unread) for the undo, no longer than it would have lived.
        let kept = try #require(Int(try fixture.cli("PTTL", entry(fixture, "t1"))))
        #expect(kept > 0 && kept <= 3_600_000)
        #expect(try fixture.cli("HLEN", fixture.keys.expiryTrash(outcome.auditID, namespace: "tiles")) == "1111")
        let trashTTL = try #require(Int(try fixture.cli("PTTL", fixture.keys.expiryTrash(outcome.auditID, namespace: "tiles"))))
        #expect(trashTTL > 6 * 86_400_000 && trashTTL <= 7 * 86_400_000)
        let record = try #require(try admin.auditLog().first)
        #expect(record.canUndo && record.entries == 1111 && record.bytes == outcome.bytes && record.finishedAt != nil)
        #expect(record.target == target && record.sampleKeys.count == 5)

        fixture.clock.advance(by: .milliseconds(1))
        try tiles.set(99, for: "t13")  // written again since: keeps its new expiry
        #expect(try admin.restore(outcome.auditID) == 1110)
        #expect(try tiles.get("t1") == 1 && tiles.get("t13") == 99 && tiles.count() == 2501)
        let restored = try #require(Int(try fixture.cli("PTTL", entry(fixture, "t1"))))
        #expect(restored > 3_600_000 - 60_000 && restored <= 3_600_000)
        #expect(try fixture.cli("EXISTS", fixture.keys.expiryTrash(outcome.auditID, namespace: "tiles")) == "0")
    }

    @Test(arguments: RedisDeployment.allCases)
    func settingAndExtendingATTLKeepsNeverAndTheStaleWindowAndIsExact(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let tiles = try tiles(store)
        let stale = try store.cache(
            "stale", key: String.self, value: Int.self, policy: .default.expiring(.after(.seconds(60))))
        try stale.set(1, for: "a")
        let admin = store.admin
        let now = fixture.clock.nowMilliseconds()
        _ = try admin.run(
            .expiry(selector: .keys(namespace: "tiles", keys: ["t1", "t2"]), change: .set(milliseconds: 60_000)))
        _ = try admin.run(
            .expiry(selector: .key(namespace: "tiles", key: "never"), change: .extend(milliseconds: 60_000)))
        _ = try admin.run(.expiry(selector: .key(namespace: "tiles", key: "t3"), change: .set(milliseconds: nil)))
        _ = try admin.run(.expiry(selector: .key(namespace: "stale", key: "a"), change: .extend(milliseconds: 60_000)))
        #expect(try field(fixture, "t1", "x") == now + 60_000 && field(fixture, "t2", "x") == now + 60_000)
        #expect(try field(fixture, "t1", "s") == now + 60_000, "no stale window: it ends with the TTL")
        let ttl = try #require(Int(try fixture.cli("PTTL", entry(fixture, "t1"))))
        #expect(ttl > 50_000 && ttl <= 60_000)
        #expect(try field(fixture, "never", "x") == nil && fixture.cli("PTTL", entry(fixture, "never")) == "-1")
        #expect(try field(fixture, "t3", "x") == nil && field(fixture, "t3", "s") == nil)
        #expect(try fixture.cli("PTTL", entry(fixture, "t3")) == "-1")
        #expect(try field(fixture, "a", "x", namespace: "stale") == now + 120_000)
        #expect(try field(fixture, "a", "s", namespace: "stale") == now + 120_000 + 3_600_000, "the stale window is kept")

        fixture.clock.advance(by: .seconds(60))
        #expect(try tiles.get("t1") == nil && tiles.get("t4") == 4 && tiles.get("t3") == 3)
        let targets = try admin.auditLog().compactMap { $0.target.map(String.init(describing:)) }
        #expect(targets.contains { $0.hasPrefix("set TTL 1m of ") })
    }

    @Test(arguments: RedisDeployment.allCases)
    func aTagActionChangesOnlyTaggedEntriesAndAStopKeepsWhatItChanged(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let tiles = try tiles(store)
        try tiles.set(7, for: "hot", tags: ["hot"])
        let tagged = try store.admin.run(.expiry(selector: .tag("hot"), change: .expireNow))
        #expect(try tagged.removed == 1 && tiles.get("hot") == nil)

        let keys = (0..<2500).map { "t\($0)" }
        var reports = 0
        let stopped = try store.admin.run(.expiry(selector: .keys(namespace: "tiles", keys: keys), change: .expireNow))
        {
            _ in
            reports += 1
            return false
        }
        #expect(stopped.isCancelled && stopped.removed == 1000 && reports == 1)
        #expect(try tiles.count() == 2502 - 1 - 1000)
        #expect(try store.admin.auditLog().first?.entries == 1000)
        #expect(try store.admin.restore(stopped.auditID) == 1000)
        #expect(try store.admin.restore(tagged.auditID) == 1)
        #expect(try tiles.count() == 2502 && tiles.get("hot") == 7)
        // The tag set still lists it: a tag invalidation finds it.
        #expect(try store.invalidate(.tag("hot", namespace: "tiles")).totalRemoved == 1)
    }

    @Test(arguments: RedisDeployment.allCases)
    func aNearCacheDropsItsCopyWhenAnotherStoreExpiresIt(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let app = try fixture.open(clock: SystemClock())
        let operatorStore = try fixture.open(clock: SystemClock())
        defer {
            app.close()
            operatorStore.close()
        }
        let hot = try app.cache("hot", key: String.self, value: Int.self, policy: .hybrid)
        try hot.set(1, for: "a")
        try app.synchronize()
        #expect(try hot.get("a") == 1 && hot.memoryUsage.entries == 1)
        _ = try operatorStore.admin.run(.expiry(selector: .key(namespace: "hot", key: "a"), change: .expireNow))
        #expect(eventually { hot.memoryUsage.entries == 0 } != nil)
        #expect(try hot.get("a") == nil)
    }
}
