import CacheConsole
import TerminalUI
import CacheCore
import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

/// The console's data source over a RedisStore on a private redis-server.
@Suite("Redis store data source", .enabled(if: RedisServer.isInstalled || RedisServer.isRequired))
struct RedisStoreDataSourceTests {
    @Test func overviewPagesDetailTimelineAndReadOnlyRefusals() throws {
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
        let source = try RedisStoreDataSource(url: server.url, readOnly: true)
        #expect(source.isReadOnly && source.hasKeyspace && !source.isKeyspace)
        var overview = try source.overview()
        // The census counts on its own thread: poll until it completes (10 s at most).
        let deadline = ContinuousClock.now + .seconds(10)
        while overview.redis?.countedAt == nil && ContinuousClock.now < deadline {
            overview = try source.overview()
        }
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
        // The whole value, as stored, for the clipboard and the pager.
        #expect(try source.wholeValue(namespace: "users", key: "user-7") == Data(#"{"age":7}"#.utf8))
        #expect(try source.wholeValue(namespace: "users", key: "user-none") == nil)
        let timeline = try source.timeline(namespace: "users")
        #expect(timeline.isExact && timeline.buckets.reduce(0) { $0 + $1.entries } == 250)
        #expect(throws: ConsoleError.self) { try source.auditLog(limit: 10) }
        #expect(throws: CacheError.readOnly(path: source.location)) { try source.undo(auditID: 1) }
        let level = try source.keyspace(KeyspaceRequest(prefix: Data()))
        #expect(level.server.keyCount > 250)
    }

    @Test func hourAndDayStatisticsShowTelemetryFromBeforeTheConsoleOpened() throws {
        let server = try RedisServer()
        var options = StoreOptions()
        options.statistics.metrics = .off
        options.statistics.telemetryInterval = .seconds(3600)
        let store = try RedisStore(url: server.url, options: options, redis: RedisStoreOptions(environment: [:]))
        defer { store.close() }
        let users = try store.cache("users", key: String.self, value: Int.self, policy: .databaseOnly)
        try users.set(1, for: "alice")
        _ = try users.get("alice")
        _ = try users.get("bob")
        try store.flushTelemetry()

        let source = try RedisStoreDataSource(url: server.url, readOnly: true)
        for window in [StatisticsWindow.hour, .day] {
            let snapshot = try source.statistics(window: window)
            #expect(snapshot.overall.hitRate.count == (window == .hour ? 60 : 48))
            #expect(snapshot.overall.hitRate.filter { !$0.isNaN } == [0.5])
            #expect(snapshot.namespaces["users"]?.hitRate.filter { !$0.isNaN } == [0.5])
        }
        // Five minutes in 5-second points: sampled since the console opened, so still empty.
        let recent = try source.statistics(window: .fiveMinutes)
        #expect(recent.overall.hitRate.allSatisfy { $0.isNaN })
    }

    @Test func actionsPreviewRunAuditAndUndoThroughTheStoresAdmin() throws {
        let server = try RedisServer()
        let store = try RedisStore(url: server.url, redis: RedisStoreOptions(environment: [:]))
        defer { store.close() }
        let users = try store.cache("users", key: String.self, value: Int.self)
        try users.set((0..<30).map { (key: "user-\($0)", value: $0) })
        let source = try RedisStoreDataSource(url: server.url)
        #expect(!source.isReadOnly)

        // "user-1" and "user-10" … "user-19": a filter that is just a prefix runs as one.
        let pending = try source.prepare(.matching(namespace: "users", filter: "prefix:user-1"))
        #expect(pending.target == .invalidate(.prefix(namespace: "users", prefix: "user-1")))
        #expect(pending.impact.entries == 11)
        // Redis keeps no hits per entry: the share is unknown, not 0 %.
        #expect(pending.impact.recentHitShare == nil && pending.summary.hasSuffix("hits unknown."))
        #expect(try source.run(pending, answer: "n") { _ in true } == nil)
        #expect(try users.get("user-1") == 1)
        let result = try #require(try source.run(pending, answer: "y") { _ in true })
        #expect(result.outcome.removed == 11 && result.undo != nil)
        #expect(try users.get("user-1") == nil && users.get("user-2") == 2)

        let audit = try source.auditLog(limit: 10)
        #expect(audit.count == 1 && audit[0].entries == 11 && audit[0].canUndo && !audit[0].isUndone)
        #expect(try source.undo(auditID: audit[0].id).restored == 11)
        #expect(try users.get("user-1") == 1 && users.get("user-15") == 15)
        #expect(try source.auditLog(limit: 10).first { $0.id == audit[0].id }?.isUndone == true)
    }

    @Test func theOverviewOffersOnlyWhatTheStoreCanDo() throws {
        let server = try RedisServer()
        let store = try RedisStore(url: server.url, redis: RedisStoreOptions(environment: [:]))
        defer { store.close() }
        try store.cache("users", key: String.self, value: Int.self).set(1, for: "a")
        var harness = ConsoleHarness(columns: 120, rows: 30, source: try RedisStoreDataSource(url: server.url))
        let hints = harness.screen().split(separator: "\n").last.map(String.init) ?? ""
        #expect(hints.contains("clear") && !hints.contains("sweep"), "\(hints)")
        harness.press(.character("w"))
        #expect(harness.screen().contains("Redis expires entries itself: there is nothing to sweep."))
        #expect(harness.model.overlay == nil && harness.model.busy == nil)
    }

    @Test func exportWritesJSONLinesOfEveryPageAndOfChosenKeys() throws {
        let server = try RedisServer()
        let store = try RedisStore(url: server.url, redis: RedisStoreOptions(environment: [:]))
        defer { store.close() }
        let users = try store.cache("users", key: String.self, value: [String: Int].self)
        try users.set((0..<1200).map { (key: "user-\($0)", value: ["age": $0]) }, tags: ["people"])
        let blobs = try store.dataCache("blobs", key: String.self)
        try blobs.set(Data([0, 1, 0xFF]), for: "raw")
        let source = try RedisStoreDataSource(url: server.url, readOnly: true)
        let path = NSTemporaryDirectory() + "cachedeck-redis-export-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }

        func lines() throws -> [[String: Any]] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }
        #expect(try source.export(ExportRequest(namespace: "users", path: path)) == 1200)
        let all = try lines()
        #expect(Set(all.compactMap { $0["key"] as? String }).count == 1200)
        let seven = try #require(all.first { $0["key"] as? String == "user-7" })
        #expect((seven["value"] as? [String: Int]) == ["age": 7] && seven["tags"] as? [String] == ["people"])
        #expect(seven["createdAt"] is Int && seven["staleUntil"] != nil && seven["version"] as? String == "")

        #expect(
            try source.export(ExportRequest(namespace: "users", filter: "prefix:user-11", path: path, replacing: true))
                == 111)
        #expect(
            try source.export(ExportRequest(namespace: "users", keys: ["user-3", "nope"], path: path, replacing: true))
                == 1)
        #expect(try lines().map { $0["key"] as? String } == ["user-3"])
        #expect(try source.export(ExportRequest(namespace: "blobs", path: path, replacing: true)) == 1)
        #expect(try lines().first?["valueBase64"] as? String == Data([0, 1, 0xFF]).base64EncodedString())
        #expect(throws: InspectorError.noSuchNamespace("nope")) {
            try source.export(ExportRequest(namespace: "nope", path: path, replacing: true))
        }
    }

    @Test func theLastMinutesMissesAreUnknownUntilTwoSamplesThenCounted() throws {
        let server = try RedisServer()
        var options = StoreOptions()
        options.statistics.metrics = .off
        let store = try RedisStore(url: server.url, options: options, redis: RedisStoreOptions(environment: [:]))
        defer { store.close() }
        let users = try store.cache("users", key: String.self, value: Int.self, policy: .databaseOnly)
        try users.set(1, for: "alice")
        try store.flushTelemetry()
        let source = try RedisStoreDataSource(url: server.url, readOnly: true)
        // The census counts on its own thread: wait for it (the timeline takes no sample).
        try #require(try eventually { try source.timeline(namespace: nil).isExact } != nil)
        let first = try source.overview().namespaces.first { $0.name == "users" }
        #expect(first != nil && first?.lastMinute == nil, "one sample tells nothing yet: unknown")
        _ = try users.get("alice")
        for key in ["bob", "carol", "dave"] { _ = try users.get(key) }
        try store.flushTelemetry()
        // Samples a millisecond apart or less are one sample: poll with a deadline.
        let deadline = ContinuousClock.now + .seconds(5)
        var minute: ActivityCounts?
        repeat {
            minute = try source.overview().namespaces.first { $0.name == "users" }?.lastMinute
        } while minute == nil && ContinuousClock.now < deadline
        #expect(minute?.requests == 4 && minute?.misses == 3)
        #expect(minute?.loadFailures == nil, "no loader: unknown")
    }
}
