import CacheCore
import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

/// `namespaces` and `stats` on a RedisStore, through the binary: the tables and JSON of a file.
@Suite("Redis namespaces and stats commands", .enabled(if: redisAvailable))
struct RedisReportCommandTests {
    let server: RedisServer
    let folder: TemporaryFolder
    let store: RedisStore

    /// 1,500 live `colors` (two read, one missed; five more read by a client two hours ago)
    /// and, written two minutes ago with a TTL of a minute, 3 `old` entries expired but in
    /// their stale window.
    init() throws {
        server = try RedisServer()
        folder = try TemporaryFolder()
        var options = StoreOptions()
        options.statistics.metrics = .off
        store = try RedisStore(url: server.url, options: options, redis: RedisStoreOptions(environment: [:]))
        let colors = try store.cache("colors", key: String.self, value: String.self)
        try colors.set((0..<1500).map { (key: "k\($0)", value: "v\($0)") })
        _ = try colors.get("k1")
        _ = try colors.get("k2")
        _ = try colors.get("missing")
        try store.flushTelemetry()
        var earlierOptions = StoreOptions(clock: ManualClock(start: Date().addingTimeInterval(-7200)))
        earlierOptions.statistics.metrics = .off
        let earlier = try RedisStore(url: server.url, options: earlierOptions, redis: RedisStoreOptions(environment: [:]))
        defer { earlier.close() }
        let before = try earlier.cache("colors", key: String.self, value: String.self)
        for _ in 0..<5 { _ = try before.get("k1") }
        try earlier.flushTelemetry()
        let past = ManualClock(start: Date().addingTimeInterval(-120))
        var pastOptions = StoreOptions(clock: past)
        pastOptions.statistics = .disabled
        let writer = try RedisStore(url: server.url, options: pastOptions, redis: RedisStoreOptions(environment: [:]))
        defer { writer.close() }
        let old = try writer.cache(
            "old", key: String.self, value: Int.self, policy: .default.expiring(.after(.seconds(60))))
        try old.set([(key: "a", value: 1), (key: "b", value: 2), (key: "c", value: 3)])
    }

    func run(_ arguments: String...) throws -> CLIResult {
        try CLIProcess(arguments, folder: folder).wait()
    }

    @Test func namespacesCountsEveryEntryExactly() throws {
        let list = try #require(try run("namespaces", server.url, "--json").json() as? [[String: Any]])
        #expect(list.map { $0["name"] as? String } == ["colors", "old"])
        #expect(list[0]["entryCount"] as? Int == 1500 && list[0]["liveEntryCount"] as? Int == 1500)
        #expect(list[1]["entryCount"] as? Int == 3 && list[1]["expiredEntryCount"] as? Int == 3)
        let activity = try #require(list[0]["lastMinute"] as? [String: Any])
        #expect(activity["hits"] as? Int == 2 && activity["misses"] as? Int == 1 && activity["sets"] as? Int == 1500)
        #expect(list[0]["policy"] is [String: Any])

        let table = try run("namespaces", server.url)
        #expect(table.status == 0 && table.stdout.hasPrefix("namespace"), "\(table.stderr)")
        #expect(table.stdout.contains("colors") && table.stdout.contains("1,500") && table.stdout.contains("66.7%"))
        let elsewhere = try run("namespaces", server.url, "--redis-prefix", "elsewhere:", "--json")
        #expect(try elsewhere.status == 0 && (elsewhere.json() as? [Any])?.isEmpty == true)
    }

    @Test func lsShowAndTimelineReadTheStore() throws {
        let timeline = try run("timeline", server.url, "--json").object()
        let buckets = try #require(timeline["buckets"] as? [[String: Any]])
        #expect(buckets.compactMap { $0["entries"] as? Int }.reduce(0, +) == 1503, "\(buckets)")
        #expect(buckets.first { $0["kind"] as? String == "expired" }?["entries"] as? Int == 3)
        let old = try run("timeline", server.url, "old")
        #expect(old.status == 0 && old.stdout.hasPrefix("Expiry of namespace old"), "\(old.stderr)")

        var keys: [String] = []
        var arguments = ["ls", server.url, "colors", "--limit", "400", "--json"]
        for _ in 0..<10 {
            let page = try CLIProcess(arguments, folder: folder).wait().object()
            keys += try #require(page["rows"] as? [[String: Any]]).compactMap { $0["key"] as? String }
            guard let next = page["next"] as? String else { break }
            arguments = ["ls", server.url, "colors", "--limit", "400", "--json", "--after", next]
        }
        #expect(keys.count == 1500 && Set(keys).count == 1500)
        let table = try run("ls", server.url, "colors", "--filter", "prefix:k14", "--limit", "5")
        #expect(table.status == 0 && table.stdout.contains("In SCAN order") && table.stdout.contains("Next page: "))
        let sorted = try run("ls", server.url, "colors", "--sort", "size")
        #expect(sorted.status == 1 && sorted.errorLines.count == 1 && sorted.stderr.contains("SCAN order"))

        let show = try run("show", server.url, "colors", "k42")
        #expect(show.status == 0 && show.stdout.contains("\"v42\"") && show.stdout.contains("Redis records no reads"))
        let raw = try run("show", server.url, "colors", "k42", "--raw")
        #expect(raw.stdout == "\"v42\"")
        let missing = try run("show", server.url, "colors", "nope")
        #expect(missing.status == 1 && missing.errorLines == ["cachedeck: no entry with key 'nope' in namespace 'colors'"])
        let noNamespace = try run("show", server.url, "nope", "k1")
        #expect(noNamespace.status == 1 && noNamespace.errorLines == ["cachedeck: no namespace named 'nope'"])
    }

    @Test func metricsServesEveryClientsLastMinuteFromTheMinuteBuckets() throws {
        let metrics = try CLIProcess(["metrics", server.url, "--listen", "127.0.0.1:0"], folder: folder)
        let port = try Scrape.port(of: metrics)
        let samples = Scrape.samples(try Scrape.get("/metrics", port: port).body)
        let colors = "{namespace=\"colors\",window=\"1m\"}"
        // The earlier client's reads, two hours ago, are not the last minute's.
        #expect(samples["cachedeck_hit_ratio\(colors)"] == 2.0 / 3)
        // The counters grow by what clients do between two scrapes, and never go down.
        let cache = try store.cache("colors", key: String.self, value: String.self)
        for _ in 0..<3 { _ = try cache.get("k7") }
        try cache.set("v", for: "k1500")
        try store.flushTelemetry()
        let later = Scrape.samples(try Scrape.get("/metrics", port: port).body)
        let counters = later.keys.filter { $0.contains("_total{") }
        #expect(counters.count == 20 && counters.allSatisfy { later[$0]! >= samples[$0] ?? .infinity })
        for (name, grew) in [("hits", 3), ("misses", 0), ("sets", 1), ("requests", 3)] {
            let key = "cachedeck_\(name)_total{namespace=\"colors\"}"
            #expect(later[key].map { $0 - (samples[key] ?? -1) } == Double(grew), "\(name)")
        }
        #expect(later["cachedeck_hits_total{namespace=\"colors\"}"]! <= 2 + 3, "not the 5 reads of two hours ago")
        #expect(samples["cachedeck_entries{namespace=\"colors\"}"] == 1500)
        #expect(samples["cachedeck_expired_entries{namespace=\"old\"}"] == 3)
        #expect(samples["cachedeck_processes"] == 2 && samples["cachedeck_live_processes"] == 1)
        metrics.signal(SIGINT)
        let result = try metrics.wait()
        #expect(result.status == 0 && result.stdout.hasSuffix("Stopped.\n"))
    }

    @Test func statsShowsEveryClientsCountsPerWindowFromTheMinuteBuckets() throws {
        let report = try run("stats", server.url, "colors", "--json").object()
        #expect(report["namespace"] as? String == "colors" && report["processes"] as? Int == 2)
        #expect(report["liveProcesses"] as? Int == 1)
        let windows = try #require(report["windows"] as? [[String: Any]])
        #expect(windows.map { $0["name"] as? String } == ["1m", "5m", "1h", "24h"])
        let activities = try windows.map { try #require($0["activity"] as? [String: Any]) }
        // The last minute, five and the hour hold this client's reads; the day, the earlier one's too.
        #expect(activities.map { $0["requests"] as? Int } == [3, 3, 3, 8])
        #expect(activities.map { $0["hits"] as? Int } == [2, 2, 2, 7])

        let table = try run("stats", server.url)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.hasPrefix("Activity of all namespaces, from the telemetry of 2 clients (1 live)"))
        #expect(table.stdout.contains("1m ") && table.stdout.contains("66.7%") && table.stdout.contains("87.5%"))

        let missing = try run("stats", server.url, "nope")
        #expect(missing.status == 1 && missing.errorLines == ["cachedeck: no namespace named 'nope'"])
        let watch = try run("stats", server.url, "--watch")
        #expect(watch.status == 2 && watch.stderr.contains("--watch reads cache files only"))
        let other = try run("check", server.url)
        #expect(other.status == 1 && other.errorLines.first?.contains("namespaces, ls, show, timeline, stats") == true)
    }
}
