import CacheConsole
import CacheCore
import CacheDeckTestSupport
import Foundation
import Testing

/// The console's data source over a RedisStore on a private redis-server.
@Suite("Redis store data source", .enabled(if: RedisServer.isInstalled || RedisServer.isRequired))
struct RedisStoreDataSourceTests {
    @Test func overviewPagesDetailTimelineAndRefusedActions() throws {
        let server = try RedisServer()
        var options = StoreOptions()
        options.statistics.metrics = .off
        let store = try RedisStore(url: server.url, options: options, redis: RedisStoreOptions(environment: [:]))
        defer { store.close() }
        let users = try store.cache("users", key: String.self, value: [String: Int].self)
        try users.set((0..<250).map { (key: "user-\($0)", value: ["age": $0]) })
        _ = try users.get("user-1")
        try store.flushTelemetry()

        #expect(try RedisStoreDataSource.holdsStore(url: server.url, prefix: "cachedeck:"))
        #expect(try !RedisStoreDataSource.holdsStore(url: server.url, prefix: "other:"))
        let source = try RedisStoreDataSource(url: server.url)
        #expect(source.isReadOnly && source.hasKeyspace && !source.isKeyspace)
        var overview = try source.overview()
        while overview.redis?.countedAt == nil { overview = try source.overview() }
        let facts = try #require(overview.namespaces.first)
        #expect(facts.name == "users" && facts.entries == 250 && facts.isExact)
        #expect(overview.processes.count == 1 && overview.processes[0].isLive)

        var keys: [String] = []
        var start: PageToken?
        repeat {
            let page = try source.entries(
                EntriesRequest(namespace: "users", sort: EntrySort(.key), filter: "", start: start, limit: 40))
            #expect(page.isScanOrder && page.rows.allSatisfy { $0.hits == nil })
            keys += page.rows.map(\.key)
            start = page.next
        } while start != nil
        #expect(keys.count == 250 && Set(keys).count == 250)

        let detail = try #require(try source.entry(id: .key(namespace: "users", key: "user-7"), hex: false))
        guard case .json(let text, false) = detail.value else {
            Issue.record("expected JSON, got \(detail.value)")
            return
        }
        #expect(text.contains("\"age\"") && text.contains("7") && detail.valueBytes == 9)
        #expect(try source.entry(id: .row(1), hex: false) == nil)
        let timeline = try source.timeline(namespace: "users")
        #expect(timeline.isExact && timeline.buckets.reduce(0) { $0 + $1.entries } == 250)
        #expect(throws: ConsoleError.self) { try source.auditLog(limit: 10) }
        #expect(throws: ConsoleError.self) { try source.undo(auditID: 1) }
        let level = try source.keyspace(KeyspaceRequest(prefix: Data()))
        #expect(level.server.keyCount > 250)
    }
}
