import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore
@testable import CacheCoreRedis

/// `RedisStoreInspector` on a real Redis Cluster (issue #28): namespaces read in their slots,
/// the census walking every primary (lower bounds until it has), entry pages and one entry
/// from the node serving the namespace, and the store-wide telemetry from `{%store}`'s node.
@Suite("RedisStoreInspector on a cluster", .serialized, .enabled(if: redisAvailable), .sharedCluster)
struct RedisClusterInspectorTests {
    let cluster: RedisCluster
    /// Each test's own prefix, so the tests share the cluster and nothing else.
    let prefix = "i\(UUID().uuidString.prefix(8)):"
    /// Namespaces whose slots are served by all three primaries (checked by each test).
    static let names = (0..<12).map { "ns\($0)" }

    init() throws { cluster = try SharedCluster.cluster() }

    func open() throws -> RedisStore {
        var options = StoreOptions(clock: SystemClock())
        options.statistics.metrics = .off
        return try RedisStore(url: cluster.url, options: options, redis: RedisStoreOptions(prefix: prefix, environment: [:]))
    }

    func inspector() throws -> RedisStoreInspector {
        try RedisStoreInspector(url: cluster.url, prefix: prefix, environment: [:])
    }

    /// `ns<i>` holds `10 + i` entries; `ns3`'s expire in 10 minutes, the others never.
    func fill(_ store: RedisStore) throws {
        for (index, name) in Self.names.enumerated() {
            let cache = try store.cache(name, key: String.self, value: String.self, policy: NamespacePolicy(expiration: .never))
            try cache.set(
                (0..<(10 + index)).map { (key: "k\($0)", value: "\(name)-\($0)") },
                expiration: name == "ns3" ? .after(.seconds(600)) : .never)
        }
    }

    @Test func theCensusCountsEveryPrimaryAndSaysLowerBoundUntilItHas() throws {
        let store = try open()
        defer { store.close() }
        try fill(store)
        let inspector = try inspector()
        guard case .cluster(let router) = inspector.servers else {
            Issue.record("a cluster URL makes a cluster inspector")
            return
        }
        let keys = RedisKeys(prefix: prefix, isClustered: true)
        let homes = Set(Self.names.compactMap { router.topology.owner(of: ClusterSlot.of(Data(keys.namespace($0).utf8))) })
        try #require(homes.count == 3, "the namespaces live on every primary")

        #expect(try inspector.holdsStore())
        #expect(try inspector.namespaces().map(\.name) == Self.names.sorted())
        #expect(try inspector.server().role.hasPrefix("cluster of 3 primaries"))
        let census = inspector.census(batchSize: 5, idleShare: 0)  // pacing has tests of its own
        let first = try census.step()
        #expect(!first.isComplete && census.namespaces().allSatisfy { !$0.isExact })
        #expect(first.batches == 3, "one step walks the three primaries at once")
        let done = try census.finish()
        let total = (0..<12).reduce(0) { $0 + 10 + $1 }
        #expect(done.isComplete && done.entriesFound == total && done.restarts == 0)
        let counts = Dictionary(uniqueKeysWithValues: census.namespaces().map { ($0.namespace.name, $0) })
        for (index, name) in Self.names.enumerated() {
            #expect(counts[name]?.entries == 10 + index && counts[name]?.isExact == true, "\(name)")
        }
        let timeline = try census.expiryTimeline(namespace: "ns3")
        #expect(timeline.buckets.first { $0.kind == .withinHour }?.entries == 13)
        #expect(try census.expiryTimeline().buckets.first { $0.kind == .never }?.entries == total - 13)
        let summaries = try inspector.namespaceSummaries()
        #expect(summaries.map(\.entryCount) == Self.names.sorted().map { 10 + Int($0.dropFirst(2))! })
    }

    @Test func pagesAndOneEntryComeFromTheNamespacesNode() throws {
        let store = try open()
        defer { store.close() }
        try fill(store)
        let inspector = try inspector()
        for name in ["ns0", "ns5", "ns11"] {
            var keys: [String] = []
            var after: RedisEntryCursor?
            repeat {
                let page = try inspector.entries(RedisEntryQuery(namespace: name, limit: 4, after: after))
                keys += page.rows.map(\.key)
                after = page.next
            } while after != nil
            let count = 10 + Int(name.dropFirst(2))!
            #expect(keys.sorted() == (0..<count).map { "k\($0)" }.sorted(), "\(name)")
            let detail = try #require(try inspector.entry(namespace: name, key: "k7"))
            guard case .json(let text, false) = detail.value else {
                Issue.record("expected JSON, got \(detail.value)")
                continue
            }
            #expect(text == "\"\(name)-7\"")
        }
        let filtered = try inspector.entries(RedisEntryQuery(namespace: "ns9", filter: EntryFilter(parsing: "prefix:k1")))
        #expect(Set(filtered.rows.map(\.key)) == Set(["k1"] + (10..<19).map { "k\($0)" }))
        #expect(throws: InspectorError.noSuchNamespace("nope")) { try inspector.entries(RedisEntryQuery(namespace: "nope")) }
        #expect(try inspector.entry(namespace: "nope", key: "k1") == nil)
    }

    @Test func telemetryIsReadFromTheStoresNode() throws {
        let store = try open()
        defer { store.close() }
        let cache = try store.cache("ns4", key: Int.self, value: String.self, policy: .databaseOnly)
        try cache.set("red", for: 1)
        _ = try cache.get(1)
        _ = try cache.get(2)
        try store.flushTelemetry()
        let inspector = try inspector()
        #expect(try inspector.clients().map(\.id) == [store.clientID].compactMap { $0 })
        let shared = try inspector.sharedStatistics().namespaces["ns4"]
        #expect(shared?.sets == 1 && shared?.diskHits == 1 && shared?.misses == 1)
        let minute = try inspector.activity(namespace: "ns4", last: .seconds(60))
        #expect(minute.sets == 1 && minute.misses == 1)
    }
}
