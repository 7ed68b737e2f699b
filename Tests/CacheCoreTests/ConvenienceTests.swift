import Foundation
import Testing

@testable import CacheCore

private struct GuestKey: Codable, Sendable {
    let tenant: String
    let list: String
}

extension InvalidationEvent {
    fileprivate static func vendorUpdated(_ tenant: String, id: String? = nil) -> InvalidationEvent {
        InvalidationEvent("vendorUpdated", parameters: ["tenant": tenant, "id": id])
    }
}

@Suite struct ConvenienceTests {
    @Test func subscriptsReadWriteAndRemove() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("s", key: String.self, value: Int.self)
        #expect(cache["a"] == nil)
        cache["a"] = 1
        #expect(cache["a"] == 1)
        #expect(try cache.get("a") == 1)
        cache["a"] = nil
        #expect(try cache.get("a") == nil)
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 0)
    }

    @Test func clearEmptiesACacheOrTheStore() throws {
        let fixture = try TestStore()
        let one = try fixture.store.cache("one", key: Int.self, value: Int.self)
        let two = try fixture.store.cache("two", key: Int.self, value: Int.self, policy: .hybrid)
        try one.set((0..<5).map { ($0, $0) })
        try two.set((0..<3).map { ($0, $0) })
        #expect(try one.clear() == 5)
        #expect(try two.count() == 3)
        try one.set(1, for: 1)
        #expect(try fixture.store.clear() == 4)
        #expect(try two.get(0) == nil && one.count() == 0)
    }

    @Test func expirationUnits() throws {
        #expect(Expiration.seconds(90) == .after(.seconds(90)))
        #expect(Expiration.minutes(5) == .after(.seconds(300)))
        #expect(Expiration.hours(2) == .after(.seconds(7200)))
        #expect(Expiration.days(30) == .after(.seconds(30 * 86_400)))
        let fixture = try TestStore()
        let cache = try fixture.store.cache("e", key: Int.self, value: Int.self)
        try cache.set(1, for: 1, expiration: .minutes(1))
        fixture.clock.advance(by: .seconds(59))
        #expect(try cache.get(1) == 1)
        fixture.clock.advance(by: .seconds(1))
        #expect(try cache.get(1) == nil)
    }

    @Test func policyBundlesSetDefaultsAndOverrides() throws {
        let catalogue = PolicyBundle.longTerm
            .overriding("colors", with: .longTerm.expiring(.never))
            .overriding("themes", with: .longTerm.expiring(.days(30)).memory(.small))
        let fixture = try TestStore { $0.use(catalogue) }
        #expect(try fixture.store.cache("colors", key: Int.self, value: String.self).policy.expiration == .never)
        let themes = try fixture.store.cache("themes", key: Int.self, value: String.self).policy
        #expect(themes.expiration == .days(30) && themes.memoryMaxEntries == 1000 && themes.memoryMaxBytes == 8 << 20)
        #expect(try fixture.store.cache("sets", key: Int.self, value: String.self).policy == .longTerm)
        #expect(catalogue.policy(for: "other") == .longTerm)
        #expect(NamespacePolicy.hybrid.memory(.large).memoryMaxEntries == 100_000)
        #expect(NamespacePolicy.hybrid.memory(.custom(entries: 5, bytes: nil)).memoryMaxEntries == 5)
    }

    @Test func aVersionThatFollowsTheApp() throws {
        #expect(AppVersion.current(environment: ["APP_VERSION": "2.3.1"]) == "2.3.1")
        #expect(AppVersion.current(environmentKey: "LEGO_VERSION", environment: ["LEGO_VERSION": "9"]) == "9")
        let fingerprint = AppVersion.current(environment: [:])
        #expect(fingerprint.hasPrefix("exe-"), "the test runner has no bundle version: \(fingerprint)")
        #expect(AppVersion.current(environment: [:]) == fingerprint, "stable while the executable is unchanged")
        #expect(NamespacePolicy.default.followingAppVersion(prefix: "v2-").version == "v2-" + fingerprint)
    }

    @Test func memoryUsageAndHitCounts() throws {
        let fixture = try TestStore()
        let hybrid = try fixture.store.cache("h", key: String.self, value: String.self, policy: .hybrid)
        try hybrid.set("12345", for: "ab")
        try hybrid.set("1", for: "c")
        #expect(hybrid.memoryUsage == MemoryUsage(entries: 2, bytes: 2 + 7 + 1 + 3))
        #expect(fixture.store.memoryUsage() == ["h": hybrid.memoryUsage])

        let disk = try fixture.store.cache("d", key: String.self, value: Int.self)
        #expect(disk.memoryUsage == .empty)
        try disk.set(1, for: "k")
        #expect(try disk.hitCount(for: "k") == 0)
        for _ in 0..<3 { _ = try disk.get("k") }
        #expect(try disk.hitCount(for: "k") == 3, "recorded in memory, not yet written")
        try fixture.store.flush()
        _ = try disk.get("k")
        #expect(try disk.hitCount(for: "k") == 4)
        #expect(try disk.hitCount(for: "none") == nil)
        try fixture.store.flush()
        try disk.clear()
        #expect(try disk.hitCount(for: "k") == nil)
        try disk.set(2, for: "k")
        #expect(try disk.get("k") == 2)
        #expect(try disk.hitCount(for: "k") == 1, "found after a clear gave the namespace a new id")
    }

    @Test func aStatisticsReportReadsAsText() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("colors", key: Int.self, value: String.self)
        try cache.set("red", for: 1)
        for _ in 0..<9 { _ = try cache.get(1) }
        _ = try cache.get(2)
        #expect(
            cache.statistics().report == """
                requests 10: hit rate 90.0% (excellent), 0 memory + 9 store hits, 0 stale, 1 misses
                writes 1 sets, 0 removes, 0 invalidations, 0 evictions (0 B), 0 expirations
                """)
        let report = fixture.store.statistics().report
        #expect(report.hasPrefix("all namespaces\n  requests 10: hit rate 90.0%"))
        #expect(report.contains("\ncolors\n  requests 10"))
    }

    @Test func eventsWithOptionalParametersAndUnknownEvents() throws {
        var rules = InvalidationRules()
        rules.event(
            "vendorUpdated",
            invalidates: [
                .key(namespace: "vendors", key: "vendor_list_{tenant}"),
                .key(namespace: "vendors", key: "vendor_detail_{tenant}_{id?}"),
            ])
        let fixture = try TestStore { $0.invalidationRules = rules }
        let vendors = try fixture.store.cache("vendors", key: String.self, value: Int.self)
        for key in ["vendor_list_acme", "vendor_detail_acme_7", "vendor_detail_acme_8"] { try vendors.set(1, for: key) }

        let listOnly = try fixture.store.invalidate(event: .vendorUpdated("acme"))
        #expect(listOnly.removals.map(\.selector) == [.key(namespace: "vendors", key: "vendor_list_acme")])
        let withID = try fixture.store.invalidate(event: .vendorUpdated("acme", id: "7"))
        #expect(withID.removals.map(\.selector).last == .key(namespace: "vendors", key: "vendor_detail_acme_7"))
        #expect(try vendors.get("vendor_detail_acme_7") == nil && vendors.get("vendor_detail_acme_8") == 1)
        #expect(throws: CacheError.invalidRule(reason: "event 'vendorUpdated' needs the parameter 'tenant'")) {
            try fixture.store.invalidate(event: "vendorUpdated", parameters: ["id": "7"])
        }
        let unknown = try fixture.store.invalidate(event: InvalidationEvent("nobodyListens", parameters: ["x": "1"]))
        #expect(unknown.removals.isEmpty && unknown.totalRemoved == 0)
    }

    /// Rules and selectors with struct keys: the canonical JSON holds the placeholder.
    @Test func rulesAndSelectorsWithTypedKeys() throws {
        var rules = InvalidationRules()
        rules.rule(
            when: try .entry(GuestKey(tenant: "{tenant}", list: "guests"), in: "planner"),
            invalidate: [try .entry(GuestKey(tenant: "{tenant}", list: "stats"), in: "planner")])
        let fixture = try TestStore { $0.invalidationRules = rules }
        let planner = try fixture.store.cache("planner", key: GuestKey.self, value: Int.self)
        for tenant in ["acme", "acme2"] {
            for list in ["guests", "stats"] { try planner.set(1, for: GuestKey(tenant: tenant, list: list)) }
        }
        try planner.remove(GuestKey(tenant: "acme", list: "guests"))
        #expect(try planner.get(GuestKey(tenant: "acme", list: "stats")) == nil, "the rule followed the typed key")
        #expect(try planner.get(GuestKey(tenant: "acme2", list: "stats")) == 1)
        let selector = try planner.selector(for: GuestKey(tenant: "acme2", list: "stats"))
        #expect(try fixture.store.invalidate(selector).totalRemoved == 1)
        #expect(
            try fixture.store.invalidate(.entries([GuestKey(tenant: "acme2", list: "guests")], in: "planner"))
                .totalRemoved == 1)

        let numbers = try fixture.store.cache("parts", key: Int.self, value: Int.self)
        for part in [3001, 3002, 4001] { try numbers.set(part, for: part) }
        #expect(try numbers.invalidate(prefixOf: 300).totalRemoved == 2)
        #expect(try numbers.count() == 1)
    }
}

/// Defaults an app sets once: bundles, modifiers, and memory copies shorter-lived than the file's.
@Suite struct PolicyDefaultsTests {
    @Test func bundlesCanBeDisabledOrMovedToOtherTiersWhole() throws {
        let bundle = PolicyBundle.longTerm.overriding("colors", with: .shortTerm).stored(in: .memoryAndDisk)
        #expect(bundle.defaultPolicy.tiers == .memoryAndDisk && bundle.policy(for: "colors").tiers == .memoryAndDisk)
        #expect(bundle.policy(for: "colors").expiration == NamespacePolicy.shortTerm.expiration)
        let fixture = try TestStore { $0.use(.disabled) }
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try cache.set(1, for: 1)
        #expect(try cache.get(1) == nil)
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 0)
    }

    @Test func staleWindowIsAModifierLikeTheOthers() {
        #expect(NamespacePolicy.default.staleWindow(.seconds(30)).staleWindow == .seconds(30))
        #expect(NamespacePolicy.default.staleWindow(.seconds(-1)).staleWindow == .zero)
    }

    /// The LEGO client's policy: 300 s / 100 entries in memory over 24 h in the file. Another
    /// process's write reaches this one's reads once the memory copy's time is up, even when
    /// no invalidation told it (coherence checks are out of the way here).
    @Test func memoryCopiesLiveTheirOwnTimeToLive() throws {
        let fixture = try TestStore { $0.coherenceInterval = .seconds(3600) }
        let policy = NamespacePolicy.hybrid.memory(timeToLive: .seconds(300), maxEntries: 100)
        #expect(policy.memoryMaxEntries == 100)
        let app = try fixture.store.cache("sets", key: Int.self, value: String.self, policy: policy)
        try app.set("first", for: 1)
        let other = try fixture.reopen { $0.coherenceInterval = .seconds(3600) }
        try other.cache("sets", key: Int.self, value: String.self, policy: policy).set("second", for: 1)
        fixture.clock.advance(by: .seconds(299))
        #expect(try app.get(1) == "first", "the memory copy answers within its time to live")
        fixture.clock.advance(by: .seconds(1))
        #expect(try app.get(1) == "second", "then the file does, and is copied back")
        #expect(try app.get(1) == "second")
        #expect(app.statistics().diskHits == 1 && app.statistics().memoryHits == 2)
        let reopened = try JSONDecoder().decode(NamespacePolicy.self, from: JSONEncoder().encode(policy))
        #expect(reopened == policy)
    }
}
