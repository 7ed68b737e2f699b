import Foundation
import Testing

@testable import CacheCore

@Suite struct ExpiryTests {
    @Test func subSecondExpiryUsesTheNowAtOrAfterBoundary() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("tokens", key: String.self, value: String.self)
        try cache.set("abc", for: "t", expiration: .after(.milliseconds(500)))
        fixture.clock.advance(by: .milliseconds(499))
        #expect(try cache.get("t") == "abc")
        #expect(try cache.contains("t"))
        fixture.clock.advance(by: .milliseconds(1))
        #expect(try cache.get("t") == nil)
        #expect(try !cache.contains("t"))
    }

    @Test func expiryAtADateHasMillisecondPrecision() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("tokens", key: String.self, value: Int.self)
        let start = fixture.clock.nowMilliseconds()
        try cache.set(1, for: "a", expiration: .at(Date(millisecondsSince1970: start + 250)))
        fixture.clock.advance(by: .milliseconds(249))
        #expect(try cache.get("a") == 1)
        fixture.clock.advance(by: .milliseconds(1))
        #expect(try cache.get("a") == nil)
    }

    @Test func neverExpiringEntriesSurviveAnyTime() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("colors", key: Int.self, value: String.self)
        try cache.set("red", for: 4, expiration: .never)
        fixture.clock.advance(by: .seconds(10 * 365 * 24 * 3600))
        #expect(try cache.get(4) == "red")
    }

    @Test func thePolicyExpiryAppliesWhenAWriteGivesNone() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("sessions", key: String.self, value: Int.self, policy: .shortTerm)
        try cache.set(1, for: "s")
        fixture.clock.advance(by: .seconds(3599))
        #expect(try cache.get("s") == 1)
        fixture.clock.advance(by: .seconds(1))
        #expect(try cache.get("s") == nil)
    }

    @Test func expiredEntriesStopCountingAtOnce() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try cache.set(1, for: 1, expiration: .after(.seconds(1)))
        try cache.set(2, for: 2, expiration: .after(.seconds(2)))
        try cache.set(3, for: 3, expiration: .never)
        #expect(try cache.count() == 3)
        fixture.clock.advance(by: .seconds(1))
        #expect(try cache.count() == 2)
        fixture.clock.advance(by: .seconds(1))
        #expect(try cache.count() == 1)
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 3, "rows are only deleted lazily or by sweeps")
    }

    @Test func staleReadsReturnExpiredValuesFlaggedAndDeleteNothing() throws {
        let fixture = try TestStore()
        let policy = NamespacePolicy(expiration: .after(.seconds(10)), staleWindow: .seconds(60))
        let cache = try fixture.store.cache("prices", key: String.self, value: Double.self, policy: policy)
        try cache.set(9.5, for: "brick")
        let expiry = Date(millisecondsSince1970: fixture.clock.nowMilliseconds() + 10_000)

        let fresh = try #require(try cache.getStale("brick"))
        #expect(fresh.value == 9.5 && !fresh.isStale && fresh.expiresAt == expiry)

        fixture.clock.advance(by: .seconds(30))
        #expect(try cache.get("brick") == nil)
        let stale = try #require(try cache.getStale("brick"))
        #expect(stale.value == 9.5 && stale.isStale && stale.expiresAt == expiry)
        try fixture.store.flush()
        let sweepOnly = MaintenanceOptions(tasks: [.sweepExpired], sweepBudget: .seconds(600), batchBudget: .seconds(5))
        #expect(try fixture.store.runMaintenance(sweepOnly).expiredRemoved == 0, "maintenance keeps the stale window")
        #expect(
            try fixture.store.sweepExpired(keepingStaleWindow: true) == 0, "inside the stale window nothing is swept")
        #expect(try cache.getStale("brick")?.value == 9.5)

        fixture.clock.advance(by: .seconds(40))
        #expect(try cache.getStale("brick") == nil, "past the stale window")
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 1, "stale reads delete nothing")
    }

    @Test func sweepRemovesOnlyExpiredEntriesInBatchesAndCountsThem() throws {
        let fixture = try TestStore()
        let short = try fixture.store.cache("short", key: Int.self, value: Int.self)
        let other = try fixture.store.cache("other", key: Int.self, value: Int.self)
        try short.set((0..<2500).map { (key: $0, value: $0) }, expiration: .after(.seconds(5)))
        try short.set([(key: -1, value: -1)], expiration: .never)
        try other.set((0..<10).map { (key: $0, value: $0) }, expiration: .after(.seconds(5)))
        fixture.clock.advance(by: .seconds(5) + NamespacePolicy.defaultStaleWindow)

        #expect(try fixture.store.sweepExpired(namespace: "short") == 2500)
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 11, "the other namespace was not swept")
        #expect(try fixture.store.sweepExpired() == 10)
        #expect(try short.get(-1) == -1)
        #expect(try fixture.scalar("SELECT entry_count FROM namespaces WHERE name = 'short'") == 1)
    }

    /// The held-out behaviour: an explicit sweep right after expiry removes every expired
    /// entry, stale window or not, from the file and from memory, and says how many.
    @Test func sweepRightAfterExpiryReturnsTheExpiredEntriesAndTheyAreGone() throws {
        let fixture = try TestStore()
        for policy in [NamespacePolicy.default, .hybrid] {
            let name = "sets-\(policy.tiers)"
            let cache = try fixture.store.cache(name, key: Int.self, value: Int.self, policy: policy)
            try cache.set((0..<30).map { (key: $0, value: $0) }, expiration: .after(.seconds(10)))
            try cache.set(99, for: 99, expiration: .never)
            fixture.clock.advance(by: .seconds(10))

            #expect(try fixture.store.sweepExpired(namespace: name) == 30)
            #expect(try cache.getStale(0) == nil, "gone from memory and file, stale window included")
            #expect(try cache.get(99) == 99)
            #expect(try fixture.scalar("SELECT entry_count FROM namespaces WHERE name = '\(name)'") == 1)
            #expect(try fixture.store.sweepExpired(namespace: name) == 0)
        }
    }

    @Test func sweepKeepingTheStaleWindowRemovesOnlyWhatIsPastIt() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self, policy: .default)
        try cache.set(1, for: 1, expiration: .after(.seconds(10)))
        try cache.set(2, for: 2, expiration: .after(.seconds(10) + NamespacePolicy.defaultStaleWindow))
        fixture.clock.advance(by: .seconds(10) + NamespacePolicy.defaultStaleWindow)
        #expect(try fixture.store.sweepExpired(keepingStaleWindow: true) == 1)
        #expect(try cache.getStale(2)?.value == 2)
        #expect(try fixture.store.sweepExpired() == 1)
        #expect(try cache.getStale(2) == nil)
    }

    @Test func sweepOfAnUnknownNamespaceRemovesNothing() throws {
        let fixture = try TestStore()
        #expect(try fixture.store.sweepExpired(namespace: "nope") == 0)
    }

    @Test func readsOfExpiredEntriesDeleteThemLazilyOnTheNextFlush() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try cache.set(1, for: 1, expiration: .after(.seconds(1)))
        fixture.clock.advance(by: .seconds(2) + NamespacePolicy.defaultStaleWindow)
        #expect(try cache.get(1) == nil)
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 1, "a read is never a write")
        try fixture.store.flush()
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 0)
    }

    @Test func maxAgeBoundsReadsByWhenTheValueWasWritten() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try cache.set(1, for: 1, expiration: .never)
        fixture.clock.advance(by: .seconds(59))
        #expect(try cache.get(1, maxAge: .seconds(60)) == 1)
        fixture.clock.advance(by: .seconds(1))
        #expect(try cache.get(1, maxAge: .seconds(60)) == nil)
        #expect(try cache.get(1) == 1)
    }

    @Test func overwritingRefreshesTheExpiry() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try cache.set(1, for: 1, expiration: .after(.seconds(1)))
        fixture.clock.advance(by: .seconds(2))
        #expect(try cache.get(1) == nil)
        try cache.set(2, for: 1, expiration: .after(.seconds(1)))
        #expect(try cache.get(1) == 2)
        try fixture.store.flush()
        #expect(try cache.get(1) == 2, "a lazy deletion queued earlier must not remove the new value")
    }
}

@Suite struct DefaultStaleWindowTests {
    /// Stale-if-error works with the presets: an expired entry stays readable as stale for
    /// the default hour, then sweeps remove it; `withoutStaleWindow()` turns that off.
    @Test func presetsKeepExpiredEntriesForStaleReadsForAnHour() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: String.self, value: Int.self, policy: .default)
        try cache.set(1, for: "a", expiration: .after(.seconds(10)))
        fixture.clock.advance(by: .seconds(10))
        #expect(try cache.get("a") == nil)
        #expect(try cache.count() == 0)
        let stale = try #require(try cache.getStale("a"))
        #expect(stale.value == 1 && stale.isStale)
        #expect(try fixture.store.sweepExpired(keepingStaleWindow: true) == 0)
        fixture.clock.advance(by: NamespacePolicy.defaultStaleWindow - .milliseconds(1))
        #expect(try cache.getStale("a")?.value == 1)
        fixture.clock.advance(by: .milliseconds(1))
        #expect(try cache.getStale("a") == nil)
        #expect(try fixture.store.sweepExpired() == 1)

        let strict = try fixture.store.cache(
            "strict", key: String.self, value: Int.self, policy: .default.withoutStaleWindow())
        try strict.set(1, for: "a", expiration: .after(.seconds(10)))
        fixture.clock.advance(by: .seconds(10))
        #expect(try strict.getStale("a") == nil)
        #expect(try fixture.store.sweepExpired() == 1)
        for preset in [NamespacePolicy.default, .longTerm, .shortTerm, .hybrid, .memoryOnly, .performance] {
            #expect(preset.staleWindow == .seconds(3600))
        }
    }
}
