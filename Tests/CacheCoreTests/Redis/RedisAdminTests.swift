@testable import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// Every test runs on a standalone server and on a cluster (each namespace in its slot, the
/// audit log in the store's).
@Suite("RedisAdmin: actions, undo and audit on Redis", .enabled(if: redisAvailable), .sharedCluster)
struct RedisAdminTests {
    /// Writes `count` entries `k0…` with value `v<i>` (every third tagged `hot`).
    func fill(_ store: RedisStore, _ namespace: String = "colors", count: Int) throws -> Cache<String, String> {
        let cache = try store.cache(namespace, key: String.self, value: String.self, policy: .hybrid)
        for index in 0..<count { try cache.set("v\(index)", for: "k\(index)", tags: index % 3 == 0 ? ["hot"] : []) }
        return cache
    }

    /// Entry `key` of generation `generation` of `colors`, as its key is named.
    func entry(_ fixture: RedisFixture, _ generation: Int, _ key: String) -> String {
        fixture.keys.entries("colors") + "\(generation):" + key
    }

    /// Bytes of `count` entries `k<i>` = `"v<i>"` as the admin counts them (JSON value plus key).
    func bytes(_ indexes: some Sequence<Int>) -> Int {
        indexes.reduce(0) { $0 + "\"v\($1)\"".utf8.count + "k\($1)".utf8.count }
    }

    @Test(arguments: RedisDeployment.allCases)
    func aClearIsUndoneWithTheEntriesWrittenSinceWinning(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let cache = try fill(store, count: 30)
        let impact = try store.admin.preview(.clear(namespace: "colors"))
        #expect(impact.entries == 30 && impact.bytes == bytes(0..<30) && impact.sampleKeys.count == 10)
        let outcome = try store.admin.run(.clear(namespace: "colors"))
        #expect(outcome.removed == 30 && outcome.bytes == impact.bytes && outcome.isUndoable && !outcome.isCancelled)
        #expect(try cache.get("k1") == nil && cache.count() == 0)
        // The old generation is kept as the action's trash, not unlinked.
        #expect(try fixture.cli("EXISTS", entry(fixture, 1, "k1")) == "1")
        try cache.set("new", for: "k1")
        try cache.set("fresh", for: "k99")

        // 29 of the 30 came back: k1 keeps the value written since (k99 is new, not restored).
        #expect(try store.admin.restore(outcome.auditID) == 29)
        #expect(try cache.get("k1") == "new" && cache.get("k99") == "fresh" && cache.get("k2") == "v2")
        #expect(try cache.count() == 31)
        #expect(try fixture.cli("HGET", fixture.keys.namespace("colors"), "generation") == "1")
        #expect(try fixture.cli("EXISTS", entry(fixture, 2, "k1")) == "0")
        // Tag sets came back with the generation: a tag invalidation still finds everything.
        #expect(try store.invalidate(.tag("hot", namespace: "colors")).totalRemoved == 10)

        let log = try store.admin.auditLog()
        #expect(log.map(\.restoredAuditID) == [outcome.auditID, nil])
        #expect(log[1].undoneAt != nil && !log[1].canUndo && log[1].entries == 30 && log[1].finishedAt != nil)
        #expect(log[0].entries == 29 && log[0].target == nil)
        #expect(throws: CacheError.nothingToRestore(reason: "action #\(outcome.auditID) was already undone")) {
            try store.admin.restore(outcome.auditID)
        }
    }

    @Test(arguments: RedisDeployment.allCases)
    func clearAllAndItsUndoCoverEveryNamespace(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let colors = try fill(store, count: 5)
        let shapes = try fill(store, "shapes", count: 7)
        #expect(try store.admin.preview(.clearAll).entries == 12)
        let outcome = try store.admin.run(.clearAll)
        #expect(try outcome.removed == 12 && colors.count() == 0 && shapes.count() == 0)
        #expect(try store.admin.restore(outcome.auditID) == 12)
        #expect(try colors.get("k4") == "v4" && shapes.get("k6") == "v6")
    }

    @Test(arguments: RedisDeployment.allCases)
    func aSecondClearMustBeUndoneFirst(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let cache = try fill(store, count: 4)
        let first = try store.admin.run(.clear(namespace: "colors"))
        try cache.set("again", for: "k0")
        let second = try store.admin.run(.clear(namespace: "colors"))
        #expect(throws: CacheError.self) { try store.admin.restore(first.auditID) }
        #expect(try store.admin.auditLog().first { $0.id == first.auditID }?.canUndo == true)
        #expect(try store.admin.restore(second.auditID) == 1)
        #expect(try store.admin.restore(first.auditID) == 3, "k0 keeps the value written since")
        #expect(try cache.get("k0") == "again" && cache.get("k3") == "v3")
    }

    @Test(
        arguments: RedisDeployment.allCases,
        [
            InvalidationSelector.key(namespace: "colors", key: "k4"),
            .keys(namespace: "colors", keys: ["k1", "k2", "k2", "missing"]),
            .prefix(namespace: "colors", prefix: "k1"),
            .tag("hot", namespace: "colors"),
            .tag("hot"),
        ])
    func selectiveActionsRemoveWhatThePreviewCountedAndUndoThem(
        _ deployment: RedisDeployment, _ selector: InvalidationSelector
    ) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let cache = try fill(store, count: 25)
        let other = try fill(store, "shapes", count: 3)
        let before = try (0..<25).map { try cache.get("k\($0)") }
        let impact = try store.admin.preview(.invalidate(selector))
        let outcome = try store.admin.run(.invalidate(selector))
        #expect(outcome.removed == impact.entries && outcome.bytes == impact.bytes && impact.entries > 0)
        let shapesRemoved = selector == .tag("hot") ? 1 : 0
        #expect(try cache.count() == 25 - outcome.removed + shapesRemoved && other.count() == 3 - shapesRemoved)
        let record = try #require(try store.admin.auditLog().first)
        #expect(record.entries == outcome.removed && record.bytes == outcome.bytes && record.finishedAt != nil)
        #expect(record.target == .invalidate(selector) && record.sampleKeys.count == min(5, outcome.removed))
        #expect(record.origin == .current)

        #expect(try store.admin.restore(outcome.auditID) == outcome.removed)
        #expect(try (0..<25).map { try cache.get("k\($0)") } == before && other.count() == 3)
        // Tags came back with the entries.
        #expect(try store.admin.preview(.invalidate(.tag("hot", namespace: "colors"))).entries == 9)
    }

    @Test(arguments: RedisDeployment.allCases)
    func anUndoKeepsKeysWrittenSinceAndEntriesKeepTheirExpiry(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let cache = try store.cache("colors", key: String.self, value: String.self)
        try cache.set("short", for: "a", expiration: .after(.seconds(60)))
        try cache.set("forever", for: "b", expiration: .never)
        try cache.set("old", for: "c")
        let ttl = try #require(Int(try fixture.cli("PTTL", entry(fixture, 1, "a"))))
        #expect(ttl > 60_000 - 1000)  // the end of the stale window
        let outcome = try store.admin.run(.invalidate(.keys(namespace: "colors", keys: ["a", "b", "c"])))
        #expect(outcome.removed == 3)
        let trash = fixture.keys.trash(outcome.auditID, namespace: "colors")
        let short = try #require(Int(try fixture.cli("PTTL", trash + "a")))
        let forever = try #require(Int(try fixture.cli("PTTL", trash + "b")))
        #expect(short > 0 && short <= ttl)
        #expect(forever > 7 * 86_400_000 - 60_000 && forever <= 7 * 86_400_000)
        try cache.set("new", for: "c")
        #expect(try store.admin.restore(outcome.auditID) == 2)
        #expect(try cache.get("a") == "short" && cache.get("b") == "forever" && cache.get("c") == "new")
        #expect(try fixture.cli("PTTL", entry(fixture, 1, "b")) == "-1")
        // Its expiry is the end of its stale window again, as the store's (manual) clock sees it.
        let restoredTTL = try #require(Int64(try fixture.cli("PTTL", entry(fixture, 1, "a"))))
        let staleEnd = try #require(Int64(try fixture.cli("HGET", entry(fixture, 1, "a"), "s")))
        #expect(restoredTTL > 0 && restoredTTL <= staleEnd - fixture.clock.nowMilliseconds())
        #expect(try fixture.cli("KEYS", trash + "*").isEmpty)
    }

    @Test func recordsWrittenBeforeLedgersAreStillUndone() throws {
        let fixture = try RedisFixture()
        let store = try fixture.open()
        defer { store.close() }
        let cache = try fill(store, count: 30)
        let keys = fixture.keys
        /// Rewrites action `id`'s record as one written before ledgers: counts and `cleared`
        /// in the record, TTL times in one hash for every namespace.
        func makeOld(_ id: Int64, cleared: String? = nil) throws {
            try fixture.cli("HDEL", keys.audit(id), "namespaces")
            if let cleared { try fixture.cli("HSET", keys.audit(id), "cleared", cleared) }
            try fixture.cli("DEL", keys.ledger(id, namespace: "colors"))
            if try fixture.cli("EXISTS", keys.expiryTrash(id, namespace: "colors")) == "1" {
                try fixture.cli("RENAME", keys.expiryTrash(id, namespace: "colors"), keys.expiryTrash(id, namespace: nil))
            }
        }
        let moved = try store.admin.run(.invalidate(.prefix(namespace: "colors", prefix: "k1")))
        try makeOld(moved.auditID)
        #expect(try store.admin.auditRecord(moved.auditID)?.entries == 11)
        #expect(try store.admin.restore(moved.auditID) == 11 && cache.count() == 30)

        let expired = try store.admin.run(.expiry(selector: .prefix(namespace: "colors", prefix: "k2"), change: .expireNow))
        try makeOld(expired.auditID)
        #expect(try cache.count() == 19 && store.admin.restore(expired.auditID) == 11 && cache.count() == 30)

        let cleared = try store.admin.run(.clear(namespace: "colors"))
        try makeOld(cleared.auditID, cleared: #"[{"namespace":"colors","kept":1,"current":2}]"#)
        #expect(try cache.count() == 0 && store.admin.restore(cleared.auditID) == 30 && cache.count() == 30)
    }

    @Test(arguments: RedisDeployment.allCases)
    func auditRecordsAndTrashLastTheRetention(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let cache = try fill(store, count: 3)
        let cleared = try store.admin.run(.clear(namespace: "colors"))
        try fill(store, "shapes", count: 2).set("x", for: "y")
        let removed = try store.admin.run(.invalidate(.key(namespace: "shapes", key: "k0")))
        #expect(try store.admin.auditLog().map(\.id) == [removed.auditID, cleared.auditID])
        #expect(try store.admin.auditLog(limit: 1).count == 1)
        #expect(try fixture.cli("ZSCORE", fixture.keys.kept("colors"), "colors:1").isEmpty == false)
        for key in [fixture.keys.audit(cleared.auditID), fixture.keys.ledger(cleared.auditID, namespace: "colors")] {
            let ttl = try #require(Int(try fixture.cli("PTTL", key)))
            #expect(ttl > 6 * 86_400_000 && ttl <= 7 * 86_400_000, "\(key)")
        }

        fixture.clock.advance(by: .seconds(7 * 86_400 + 1))
        #expect(try store.admin.auditLog().isEmpty)
        #expect(try store.admin.purgeTrash() == 3)
        #expect(try fixture.cli("EXISTS", entry(fixture, 1, "k1")) == "0")
        #expect(throws: CacheError.nothingToRestore(reason: "there is no action #\(cleared.auditID) in the audit log"))
        {
            try store.admin.restore(cleared.auditID)
        }
        // A new action trims the index.
        _ = try store.admin.run(.invalidate(.key(namespace: "shapes", key: "k1")))
        #expect(try fixture.cli("ZCARD", fixture.keys.auditIndex) == "1")
        #expect(try cache.count() == 0)
    }

    @Test(arguments: RedisDeployment.allCases)
    func whatRedisDoesItselfIsRefusedAsAreUnknownNamespacesAndReadOnlyStores(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        _ = try fill(store, count: 1)
        #expect(throws: CacheError.self) { try store.admin.preview(.sweep(namespace: nil)) }
        #expect(throws: InspectorError.noSuchNamespace("nope")) {
            try store.admin.run(.expiry(selector: .key(namespace: "nope", key: "k0"), change: .expireNow))
        }
        #expect(throws: InspectorError.noSuchNamespace("nope")) { try store.admin.run(.clear(namespace: "nope")) }
        var options = fixture.options()
        options.readOnly = true
        let reader = try RedisStore(
            url: fixture.url, options: options, redis: RedisStoreOptions(prefix: fixture.keys.prefix, environment: [:]))
        defer { reader.close() }
        #expect(throws: CacheError.readOnly(path: reader.endpoint)) {
            try reader.admin.run(.clear(namespace: "colors"))
        }
        #expect(throws: CacheError.readOnly(path: reader.endpoint)) {
            try reader.admin.run(.expiry(selector: .key(namespace: "colors", key: "k0"), change: .expireNow))
        }
        #expect(try store.admin.auditLog().isEmpty)
    }
}
