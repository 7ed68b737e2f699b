import Foundation
import Testing

@testable import CacheCore

/// Expiry actions: expire now, set a TTL, extend it — previewed, audited, journaled and undone.
@Suite struct ExpiryActionTests {
    private func fixture() throws -> (TestStore, Cache<String, Int>) {
        let fixture = try TestStore()
        let tiles = try fixture.store.cache(
            "tiles", key: String.self, value: Int.self,
            policy: NamespacePolicy.default.expiring(.after(.seconds(3600))).withoutStaleWindow())
        try tiles.set((0..<2500).map { (key: "t\($0)", value: $0) }, tags: [])
        try tiles.set(-1, for: "never", expiration: .never)
        return (fixture, tiles)
    }

    @Test func expireNowHidesWhatItSelectsAndItsUndoBringsItBack() throws {
        let (fixture, tiles) = try fixture()
        let admin = fixture.store.admin
        let target = AdminTarget.expiry(selector: .prefix(namespace: "tiles", prefix: "t1"), change: .expireNow)
        #expect(try admin.preview(target).entries == 1111)
        let outcome = try admin.run(target)
        #expect(outcome.removed == 1111 && outcome.isUndoable && target.description == "expire now of prefix tiles/t1")
        #expect(try tiles.get("t1") == nil && tiles.get("t12") == nil && tiles.get("t2") == 2)
        #expect(try tiles.count() == 2501 - 1111, "counted as expired, not removed")
        #expect(try admin.auditLog().first?.canUndo == true)
        fixture.clock.advance(by: .milliseconds(1))
        try tiles.set(99, for: "t13")  // written again since: keeps its new expiry
        #expect(try admin.restore(outcome.auditID) == 1110)
        #expect(try tiles.get("t1") == 1 && tiles.get("t13") == 99 && tiles.count() == 2501)
        #expect(try fixture.scalar("SELECT count(*) FROM expiry_trash") == 0)
    }

    @Test func expireNowKeepsEachEntrysStaleWindowLength() throws {
        let fixture = try TestStore()
        let tiles = try fixture.store.cache(
            "tiles", key: String.self, value: Int.self,
            policy: NamespacePolicy(expiration: .after(.seconds(3600)), staleWindow: .seconds(300)))
        try tiles.set(1, for: "a")
        let now = fixture.clock.nowMilliseconds()
        _ = try fixture.store.admin.run(.expiry(selector: .key(namespace: "tiles", key: "a"), change: .expireNow))
        #expect(try fixture.scalar("SELECT expires_at FROM entries WHERE key = 'a'") == now)
        #expect(try fixture.scalar("SELECT stale_until - expires_at FROM entries WHERE key = 'a'") == 300_000)
        #expect(try tiles.get("a") == nil && tiles.getStale("a")?.value == 1)
    }

    @Test func settingAndExtendingATTLKeepsNeverAndIsExact() throws {
        let (fixture, tiles) = try fixture()
        let admin = fixture.store.admin
        let now = fixture.clock.nowMilliseconds()
        _ = try admin.run(.expiry(selector: .keys(namespace: "tiles", keys: ["t1", "t2"]), change: .set(milliseconds: 60_000)))
        _ = try admin.run(.expiry(selector: .key(namespace: "tiles", key: "never"), change: .extend(milliseconds: 60_000)))
        _ = try admin.run(.expiry(selector: .key(namespace: "tiles", key: "t3"), change: .set(milliseconds: nil)))
        func expiry(_ key: String) throws -> Int64? {
            try fixture.scalar("SELECT coalesce(expires_at, -1) FROM entries WHERE key = '\(key)'")
        }
        #expect(try expiry("t1") == now + 60_000 && expiry("t2") == now + 60_000)
        #expect(try expiry("never") == -1, "extending never stays never")
        #expect(try expiry("t3") == -1)
        fixture.clock.advance(by: .seconds(60))
        #expect(try tiles.get("t1") == nil && tiles.get("t4") == 4 && tiles.get("t3") == 3)
        let targets = try admin.auditLog().compactMap { $0.target.map(String.init(describing:)) }
        #expect(targets.contains { $0.hasPrefix("set TTL 1m of ") })
    }

    @Test func aMemoryTierDropsItsCopyWhenAnotherProcessExpiresIt() throws {
        let fixture = try TestStore()
        let app = try fixture.reopen()
        defer { try? app.close() }
        let hot = try app.cache("hot", key: String.self, value: Int.self, policy: .hybrid)
        try hot.set(1, for: "a")
        #expect(try hot.get("a") == 1)
        _ = try fixture.store.admin.run(.expiry(selector: .key(namespace: "hot", key: "a"), change: .expireNow))
        try app.synchronize()
        #expect(try hot.get("a") == nil)
    }
}
