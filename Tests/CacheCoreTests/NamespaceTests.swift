import Foundation
import Testing

@testable import CacheCore

@Suite struct NamespaceTests {
    @Test func aNewVersionHidesAndRemovesOldEntriesInThatNamespaceOnly() throws {
        let fixture = try TestStore()
        let v1 = try fixture.store.cache("parts", key: String.self, value: Int.self, policy: .longTerm.version("v1"))
        let themes = try fixture.store.cache(
            "themes", key: String.self, value: Int.self, policy: .longTerm.version("v1"))
        try v1.set((0..<1500).map { (key: "p\($0)", value: $0) })
        try themes.set(7, for: "city")

        let v2 = try fixture.store.cache("parts", key: String.self, value: Int.self, policy: .longTerm.version("v2"))
        #expect(try v2.get("p1") == nil)
        #expect(try v2.count() == 0)
        #expect(
            try fixture.scalar(
                "SELECT count(*) FROM entries WHERE namespace_id = (SELECT id FROM namespaces WHERE name = 'parts')")
                == 0)
        #expect(try v1.get("p1") == nil, "an old handle no longer sees entries of its version")
        #expect(try themes.get("city") == 7)
        #expect(try fixture.scalar("SELECT generation FROM namespaces WHERE name = 'parts'") == 1)

        try v2.set(2, for: "p1")
        #expect(try v2.get("p1") == 2)
    }

    @Test func reopeningWithTheSameVersionKeepsEntries() throws {
        let fixture = try TestStore()
        try fixture.store.cache("parts", key: String.self, value: Int.self, policy: .default.version("v1")).set(
            1, for: "a")
        let again = try fixture.reopen().cache(
            "parts", key: String.self, value: Int.self, policy: .default.version("v1"))
        #expect(try again.get("a") == 1)
    }

    @Test func removeAllTouchesOnlyItsNamespace() throws {
        let fixture = try TestStore()
        let sets = try fixture.store.cache("sets", key: Int.self, value: Int.self)
        let parts = try fixture.store.cache("parts", key: Int.self, value: Int.self)
        try sets.set((0..<2100).map { (key: $0, value: $0) })
        try parts.set((0..<5).map { (key: $0, value: $0) })
        #expect(try sets.removeAll() == 2100)
        #expect(try sets.count() == 0)
        #expect(try parts.count() == 5)
        #expect(try parts.get(3) == 3)
    }

    @Test func removeReportsWhetherAnEntryWasThere() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: String.self, value: Int.self)
        try cache.set(1, for: "a")
        #expect(try cache.remove("a"))
        #expect(try !cache.remove("a"))
        #expect(try cache.get("a") == nil)
    }

    @Test func theSameKeyInTwoNamespacesIsTwoEntries() throws {
        let fixture = try TestStore()
        let a = try fixture.store.cache("a", key: Int.self, value: String.self)
        let b = try fixture.store.cache("b", key: Int.self, value: String.self)
        try a.set("in a", for: 1)
        try b.set("in b", for: 1)
        #expect(try a.get(1) == "in a")
        #expect(try b.get(1) == "in b")
    }

    @Test func presetsMatchWhatAppsAskFor() {
        #expect(NamespacePolicy.default.expiration == .after(.seconds(24 * 3600)))
        #expect(NamespacePolicy.longTerm.expiration == .after(.seconds(7 * 24 * 3600)))
        #expect(NamespacePolicy.shortTerm.expiration == .after(.seconds(3600)))
        #expect(!NamespacePolicy.disabled.isEnabled)
    }

    @Test func aDisabledNamespaceStoresNothingAndReadsNothing() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("off", key: String.self, value: Int.self, policy: .disabled)
        try cache.set(1, for: "a")
        #expect(try cache.get("a") == nil)
        #expect(try cache.count() == 0)
        #expect(try fixture.scalar("SELECT count(*) FROM entries") == 0)
    }

    @Test func storeDefaultsAndPerNamespaceOverridesResolveInOrder() throws {
        let fixture = try TestStore { options in
            options.defaultPolicy = .longTerm
            options.policies = ["sessions": .shortTerm]
        }
        let sessions = try fixture.store.cache("sessions", key: String.self, value: Int.self)
        let themes = try fixture.store.cache("themes", key: String.self, value: Int.self)
        let explicit = try fixture.store.cache("sessions", key: String.self, value: Int.self, policy: .default)
        #expect(sessions.policy == .shortTerm)
        #expect(themes.policy == .longTerm)
        #expect(explicit.policy == .default)
    }

    @Test func thePolicyIsRecordedInTheFileForOtherTools() throws {
        let fixture = try TestStore()
        _ = try fixture.store.cache("mail", key: String.self, value: String.self, policy: .default.keepingNewest(1000))
        #expect(
            try fixture.scalar("SELECT json_extract(policy, '$.maxEntries') FROM namespaces WHERE name = 'mail'")
                == 1000)
    }

    @Test func countersStayExactThroughInsertsOverwritesAndDeletes() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.dataCache("blobs", key: String.self)
        try cache.set(Data(count: 10), for: "a")
        try cache.set(Data(count: 20), for: "b")
        try cache.set(Data(count: 5), for: "a")
        try cache.remove("b")
        #expect(try fixture.scalar("SELECT entry_count FROM namespaces WHERE name = 'blobs'") == 1)
        #expect(
            try fixture.scalar("SELECT total_bytes FROM namespaces WHERE name = 'blobs'") == 6,
            "5 value bytes + 1 key byte")
    }
}

@Suite struct PolicyCodingTests {
    @Test func policiesRoundTripThroughTheirStableJSON() throws {
        let policies: [NamespacePolicy] = [
            .default, .disabled, .longTerm.keepingNewest(5).version("v3"),
            NamespacePolicy(
                expiration: .at(Date(timeIntervalSince1970: 1_800_000_000.123)), maxBytes: 1 << 20,
                staleWindow: .seconds(90)),
            NamespacePolicy(expiration: .never),
        ]
        for policy in policies {
            let json = try JSONEncoder().encode(policy)
            #expect(try JSONDecoder().decode(NamespacePolicy.self, from: json) == policy)
        }
        let json = String(decoding: try JSONEncoder().encode(NamespacePolicy.shortTerm), as: UTF8.self)
        #expect(json.contains(#""afterMilliseconds":3600000"#))
    }
}

@Suite struct NamespaceRegistrationTests {
    @Test func reopeningAnUnchangedNamespaceWritesNothing() throws {
        let fixture = try TestStore()
        _ = try fixture.store.cache("n", key: String.self, value: Int.self, policy: .shortTerm)
        let stamp = try fixture.scalar("SELECT updated_at FROM namespaces")
        fixture.clock.advance(by: .seconds(5))
        _ = try fixture.store.cache("n", key: String.self, value: Int.self, policy: .shortTerm)
        #expect(try fixture.scalar("SELECT updated_at FROM namespaces") == stamp)
        _ = try fixture.store.cache("n", key: String.self, value: Int.self, policy: .longTerm)
        #expect(try fixture.scalar("SELECT updated_at FROM namespaces") == stamp.map { $0 + 5000 })
    }

    /// A batch of 45 sets is upserted 32, 8, then 1 row a statement: a key repeated inside a
    /// statement and across statements keeps its last value and its first row, every row gets
    /// its own fields, and the counters count each key once with its last size.
    @Test func batchedSetsAcrossStatementGroupsKeepCountersAndFieldsExact() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.dataCache("blobs", key: String.self)
        let keys =
            (0..<30).map { "k\($0)" } + ["k3", "k5"] + (30..<38).map { "k\($0)" } + ["k3", "k35", "k3", "k37", "k44"]
        let items = keys.enumerated().map { index, key in
            CacheItem(key: key, value: Data(count: index + 1), tags: index.isMultiple(of: 2) ? ["even"] : [],
                sortValue: Int64(index))
        }
        try cache.set(items)
        var last: [String: Int] = [:]
        for (index, key) in keys.enumerated() { last[key] = index }
        for (key, index) in last { #expect(try cache.get(key)?.count == index + 1, "\(key)") }
        #expect(try fixture.scalar("SELECT entry_count FROM namespaces WHERE name = 'blobs'") == 39)
        let bytes = last.reduce(0) { $0 + $1.key.utf8.count + $1.value + 1 }
        #expect(try fixture.scalar("SELECT total_bytes FROM namespaces WHERE name = 'blobs'") == Int64(bytes))
        #expect(try fixture.scalar("SELECT sum(size) FROM entries") == Int64(bytes))
        #expect(try fixture.scalar("SELECT sort_value FROM entries WHERE key = 'k3'") == 42)
        #expect(try fixture.scalar("SELECT sort_value FROM entries WHERE key = 'k20'") == 20)
        #expect(try fixture.scalar("SELECT id FROM entries WHERE key = 'k3'") == 4, "an overwrite keeps its row")
        #expect(try fixture.scalar("SELECT count(*) FROM entries WHERE version != '' OR accessed_at != created_at") == 0)
        let even = Set(last.filter { $0.value.isMultiple(of: 2) }.map(\.key))
        #expect(try fixture.scalar("SELECT count(*) FROM entry_tags WHERE tag = 'even'") == Int64(even.count))
        #expect(try cache.invalidate(tag: "even").totalRemoved == even.count)
        #expect(try fixture.scalar("SELECT entry_count FROM namespaces WHERE name = 'blobs'") == Int64(39 - even.count))
    }
}
