import Foundation
import Testing

@testable import CacheCore

@Suite struct InvalidationTests {
    private func planner(_ fixture: TestStore, policy: NamespacePolicy = .default) throws -> Cache<String, Int> {
        let cache = try fixture.store.cache("planner", key: String.self, value: Int.self, policy: policy)
        for tenant in ["1", "10", "2"] {
            for name in ["guests", "guest_stats", "guest_count", "seating_chart", "menu"] {
                try cache.set(1, for: "\(name)_\(tenant)", tags: ["tenant:\(tenant)"])
            }
        }
        return cache
    }

    @Test func eachSelectorRemovesExactlyWhatItSelects() throws {
        let fixture = try TestStore()
        let cache = try planner(fixture)
        let other = try fixture.store.cache("other", key: String.self, value: Int.self)
        try other.set(1, for: "guests_1", tags: ["tenant:1"])

        #expect(try fixture.store.invalidate(.key(namespace: "planner", key: "guests_1")).totalRemoved == 1)
        #expect(try fixture.store.invalidate(.key(namespace: "planner", key: "guests_1")).totalRemoved == 0)
        #expect(try cache.invalidate(["menu_1", "menu_2", "nope"]).totalRemoved == 2)
        #expect(try cache.invalidate(prefix: "guest_stats_1").totalRemoved == 2)  // _1 and _10
        #expect(try cache.get("guest_stats_2") == 1)
        #expect(try fixture.store.invalidate(.tag("tenant:2", namespace: "planner")).totalRemoved == 4)
        #expect(try other.get("guests_1") == 1)
        #expect(try fixture.store.invalidate(.tag("tenant:1")).totalRemoved == 3)
        #expect(try other.get("guests_1") == nil)
        #expect(try cache.removeAll() == 4)
        try other.set(1, for: "x")
        #expect(try fixture.store.invalidate(.all).totalRemoved == 1)
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 0)
    }

    @Test func aPrefixRangeIncludesEveryContinuationAndNothingElse() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("keys", key: String.self, value: Int.self)
        let inside = ["ab", "ab\u{0}", "abz", "ab\u{10FFFF}x", "ab日本"]
        let outside = ["a", "aa", "ac", "b", "AB"]
        for key in inside + outside { try cache.set(1, for: key) }
        #expect(try cache.invalidate(prefix: "ab").totalRemoved == inside.count)
        for key in outside { #expect(try cache.get(key) == 1) }
    }

    @Test func rulesCarryTheTenantAcrossAndNeverTouchAnotherTenant() throws {
        var rules = InvalidationRules()
        rules.rule(
            when: .key(namespace: "planner", key: "guests_{tenant}"),
            invalidate: [
                .key(namespace: "planner", key: "guest_stats_{tenant}"),
                .key(namespace: "planner", key: "guest_count_{tenant}"),
            ])
        rules.rule(
            when: .key(namespace: "planner", key: "guest_count_{tenant}"),
            invalidate: [.key(namespace: "planner", key: "seating_chart_{tenant}")])
        rules.event("guestCreated", invalidates: [.key(namespace: "planner", key: "guests_{tenant}")])
        let fixture = try TestStore { $0.invalidationRules = rules }
        let cache = try planner(fixture)

        let result = try fixture.store.invalidate(event: "guestCreated", parameters: ["tenant": "1"])
        #expect(
            result.removals.map(\.selector) == [
                .key(namespace: "planner", key: "guests_1"), .key(namespace: "planner", key: "guest_stats_1"),
                .key(namespace: "planner", key: "guest_count_1"), .key(namespace: "planner", key: "seating_chart_1"),
            ])
        #expect(result.removals.map(\.removed) == [1, 1, 1, 1])
        #expect(result.removals[3].cause == .key(namespace: "planner", key: "guest_count_1"))
        for tenant in ["10", "2"] {
            for name in ["guests", "guest_stats", "guest_count", "seating_chart"] {
                #expect(try cache.get("\(name)_\(tenant)") == 1)
            }
        }
        #expect(try cache.get("menu_1") == 1)
        // A plain remove is an invalidation too, so rules follow it.
        #expect(try cache.remove("guests_2"))
        #expect(try cache.get("guest_stats_2") == nil)
    }

    @Test func unsafeOrUnknownRulesGetClearErrors() throws {
        var leaky = InvalidationRules()
        leaky.rule(
            when: .key(namespace: "p", key: "guests_{tenant}"),
            invalidate: [.prefix(namespace: "p", prefix: "stats_{tenant}")])
        #expect(throws: CacheError.self) { _ = try TestStore { $0.invalidationRules = leaky } }

        var unbound = InvalidationRules()
        unbound.rule(
            when: .key(namespace: "p", key: "guests_{tenant}"), invalidate: [.key(namespace: "p", key: "{user}")])
        do {
            _ = try TestStore { $0.invalidationRules = unbound }
            Issue.record("an unbound parameter was accepted")
        } catch {
            #expect("\(error)".contains("{user}"))
        }

        var events = InvalidationRules()
        events.event("guestCreated", invalidates: [.key(namespace: "p", key: "guests_{tenant}")])
        let fixture = try TestStore { $0.invalidationRules = events }
        #expect(throws: CacheError.invalidRule(reason: "event 'guestCreated' needs the parameter 'tenant'")) {
            try fixture.store.invalidate(event: "guestCreated")
        }
        #expect(try fixture.store.invalidate(event: "nope").removals.isEmpty, "an event no rule names does nothing")
    }

    @Test func templatesMatchWholeTextsWithConsistentParameters() throws {
        let template = KeyTemplate("{a}_to_{b}_{a}")
        #expect(template.match("x_to_y_x") == ["a": "x", "b": "y"])
        #expect(template.match("x_to_y_z") == nil)
        #expect(KeyTemplate("guests_{t}").match("guests_") == nil)
        #expect(KeyTemplate("guests_{t}").fill(["t": "9"]) == "guests_9")
        #expect(KeyTemplate("guests_{t").parameters.isEmpty, "a brace that opens no placeholder is text")
        #expect(KeyTemplate(#"{"id":{id}}"#).match(#"{"id":7}"#) == ["id": "7"])
    }

    @Test func invalidationsAreJournaledWhileAnotherStoreHoldsAMemoryTierAndReadOnlyStoresRefuse() throws {
        let fixture = try TestStore()
        let cache = try planner(fixture)
        func journal() throws -> [JournalRecord] { try fixture.store.database.read { try $0.invalidations(after: 0) } }
        try cache.remove("menu_10")
        #expect(try journal().isEmpty, "nobody keeps memory copies, so nobody needs the journal")

        let watcher = try fixture.reopen()
        _ = try watcher.cache("watch", key: String.self, value: Int.self, policy: .hybrid)
        try cache.remove("menu_1")
        try fixture.store.invalidate(.tag("tenant:2"))
        #expect(
            try journal().map(\.change) == [
                .invalidated(.key(namespace: "planner", key: "menu_1")), .invalidated(.tag("tenant:2")),
            ])
        #expect(try journal().allSatisfy { $0.origin == fixture.store.origin })
        _ = try fixture.store.cache("own", key: String.self, value: Int.self, policy: .hybrid)
        try watcher.invalidate(.key(namespace: "planner", key: "guests_1"))
        #expect(try journal().count == 3, "the watcher journals for the first store once it holds a memory tier too")

        try watcher.close()
        try cache.remove("guests_10")
        #expect(try journal().count == 3, "the first store's own memory tier needs no journal row")
        let reader = try CacheStore(path: fixture.path, options: .inspection())
        #expect(throws: CacheError.readOnly(path: fixture.path)) { try reader.invalidate(.all) }
    }

    @Test func manyKeysAreDeletedInSizedBatchesAndJournaledOnceWithTheirTotal() throws {
        // Every batch "takes" 1 s, so each one halves the next, down to 100 keys: many batches.
        let fixture = try TestStore { $0.batchStopwatch = steppingStopwatch(by: .seconds(1)) }
        let watcher = try fixture.reopen()
        defer { try? watcher.close() }
        _ = try watcher.cache("watch", key: String.self, value: Int.self, policy: .hybrid)
        let cache = try fixture.store.cache("bulk", key: Int.self, value: Int.self)
        try cache.set((0..<2400).map { (key: $0, value: $0) })
        try cache.set(-1, for: -1)

        #expect(try cache.invalidate(Array(0..<2500)).totalRemoved == 2400, "100 of the keys were never set")
        #expect(fixture.store.deleter.size == BatchSizer.range.lowerBound, "sized like a prefix's batches")
        #expect(try cache.count() == 1 && cache.get(-1) == -1)
        let journal = try fixture.store.database.read { try $0.invalidations(after: 0) }
        #expect(journal.count == 1, "journaled once, in the last batch")
        guard case .invalidated(.keys("bulk", let keys)) = journal.first?.change else {
            Issue.record("journaled \(journal.map(\.change))")
            return
        }
        #expect(keys.count == 2500)
        #expect(try fixture.scalar("SELECT removed FROM invalidations") == 2400)

        #expect(try cache.invalidate([]).totalRemoved == 0)
        #expect(try fixture.scalar("SELECT count(*) FROM invalidations") == 2, "no keys still journal once")
    }

    @Test func memoryOnlyAndHybridNamespacesDropTheirCopies() throws {
        let fixture = try TestStore()
        let memory = try fixture.store.cache("m", key: String.self, value: Int.self, policy: .memoryOnly)
        let hybrid = try planner(fixture, policy: .hybrid)
        try memory.set(1, for: "a", tags: ["t"])
        try memory.set(1, for: "b")
        #expect(try fixture.store.invalidate(.tag("t")).totalRemoved == 1)
        #expect(try memory.get("b") == 1 && memory.get("a") == nil)
        #expect(try hybrid.invalidate(tag: "tenant:1").totalRemoved == 5)
        #expect(try hybrid.get("guests_1") == nil)
        #expect(try hybrid.get("guests_2") == 1)
    }
}
