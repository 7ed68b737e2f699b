@testable import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Synchronization
import Testing

@testable import CacheCore

/// Read-only inspection of what RedisStore wrote, against a private redis-server.
@Suite("Redis store inspector", .enabled(if: redisAvailable))
struct RedisStoreInspectorTests {
    let fixture: RedisFixture
    init() throws { fixture = try RedisFixture() }

    /// A store on the wall clock (the inspector judges expiry by it).
    func store() throws -> RedisStore {
        try fixture.open(clock: SystemClock())
    }

    func inspector(_ url: String? = nil) throws -> RedisStoreInspector {
        try RedisStoreInspector(url: url ?? fixture.server.url, environment: [:])
    }

    /// colors: 3 entries (one tagged, one expiring in 10 min, the others never); users: 2
    /// entries (expiring in a day); empty: none.
    func fillSmall() throws -> RedisStore {
        let store = try store()
        let colors = try store.cache(
            "colors", key: Int.self, value: String.self, policy: NamespacePolicy(expiration: .never))
        try colors.set("red", for: 1, tags: ["warm"])
        try colors.set("green", for: 2)
        try colors.set("blue", for: 3, expiration: .after(.seconds(600)))
        let users = try store.cache("users", key: String.self, value: [String: Int].self)
        try users.set(["age": 41], for: "alice")
        try users.set(["age": 7], for: "bob")
        _ = try store.cache("empty", key: Int.self, value: Int.self)
        return store
    }

    @Test func namespacesAndExactCountsOnceTheCensusIsComplete() throws {
        _ = try fillSmall()
        let inspector = try inspector()
        #expect(try inspector.holdsStore())
        let names = try inspector.namespaces()
        #expect(names.map(\.name) == ["colors", "empty", "users"])
        #expect(names.allSatisfy { $0.generation == 1 && $0.policy != nil && $0.updatedAt != nil })
        let census = inspector.census(batchSize: 2)
        let progress = try census.finish()
        #expect(progress.isComplete && progress.entriesFound == 5 && progress.completedAt != nil)
        let counts = Dictionary(uniqueKeysWithValues: census.namespaces().map { ($0.namespace.name, $0) })
        #expect(counts["colors"]?.entries == 3 && counts["users"]?.entries == 2 && counts["empty"]?.entries == 0)
        #expect(counts.values.allSatisfy { $0.isExact })
        // Key plus value bytes, as a file store counts them: "1" + "\"red\"" …
        let colorBytes: Int64 = 1 + 5 + 1 + 7 + 1 + 6
        #expect(counts["colors"]?.bytes == colorBytes)
    }

    @Test func countsBeforeTheEndAreMarkedLowerBounds() throws {
        let store = try store()
        let numbers = try store.cache("numbers", key: Int.self, value: Int.self)
        try numbers.set((0..<300).map { (key: $0, value: $0) })
        let census = try inspector().census(batchSize: 10)
        let first = try census.step()
        #expect(!first.isComplete && first.entriesFound < 300)
        #expect(census.namespaces().allSatisfy { !$0.isExact })
        try census.finish()
        #expect(census.namespaces().first?.entries == 300 && census.namespaces().first?.isExact == true)
    }

    /// The census shares the server as the keyspace scan does: after every round trip it
    /// rests three times as long as the trip took (idle share 0.75), never over a second.
    @Test func theCensusRestsAfterEachRoundTrip() throws {
        let pacing = ScanPacing(idleShare: 0.75)
        #expect(pacing.pause(after: .milliseconds(10)) == .milliseconds(30))
        #expect(pacing.pause(after: .seconds(2)) == .seconds(1))
        #expect(ScanPacing(idleShare: 0).pause(after: .milliseconds(10)) == nil)
        let capped = ScanPacing(idleShare: 0.99).pause(after: .milliseconds(10)) ?? .zero  // as 0.9: 9 times
        #expect(capped > .microseconds(89_999) && capped < .microseconds(90_001))

        let store = try store()
        let numbers = try store.cache("numbers", key: Int.self, value: Int.self)
        try numbers.set((0..<300).map { (key: $0, value: $0) })
        let rests = Mutex<[Duration]>([])
        let census = RedisEntryCensus(
            inspector: try inspector(), batchSize: 40,
            pacing: ScanPacing(idleShare: 0.75) { pause in rests.withLock { $0.append(pause) } })
        let progress = try census.finish()
        #expect(progress.entriesFound == 300)
        let asked = rests.withLock { $0 }
        #expect(asked.count == progress.batches && progress.batches > 1)
        #expect(asked.allSatisfy { $0 > .zero && $0 <= .seconds(1) })
        #expect(try inspector().census().idleShare == 0.75)
    }

    @Test func aClearedNamespaceCountsOnlyItsLiveGeneration() throws {
        let store = try store()
        let tiles = try store.cache("tiles", key: Int.self, value: Int.self)
        try tiles.set((0..<20).map { (key: $0, value: $0) })
        try tiles.removeAll()
        try tiles.set(1, for: 1)
        let census = try inspector().census()
        try census.finish()
        #expect(census.namespaces().first?.entries == 1)
        #expect(census.namespaces().first?.namespace.generation == 2)
    }

    @Test func pagingThroughFiveThousandEntriesHasNoDuplicatesOrGaps() throws {
        let store = try store()
        let items = try store.cache("items", key: Int.self, value: Int.self)
        try items.set((0..<5000).map { (key: $0, value: $0 * 2) })
        let inspector = try inspector()
        var seen: [String] = []
        var query = RedisEntryQuery(namespace: "items", limit: 137)
        var pages = 0
        repeat {
            let page = try inspector.entries(query)
            #expect(page.rows.count <= 137)
            seen += page.rows.map(\.key)
            // Through its text token, as the console hands it around.
            query.after = try page.next.map { try RedisEntryCursor(token: $0.token) }
            pages += 1
        } while query.after != nil && pages < 1000
        #expect(seen.count == 5000)
        #expect(Set(seen) == Set((0..<5000).map(String.init)))
    }

    @Test func filtersNarrowTheScanByPrefixAndTestTheRest() throws {
        _ = try fillSmall()
        let inspector = try inspector()
        let users = try inspector.entries(
            RedisEntryQuery(namespace: "users", filter: EntryFilter(parsing: "prefix:al")))
        #expect(users.rows.map(\.key) == ["alice"] && users.next == nil)
        let tagged = try inspector.entries(
            RedisEntryQuery(namespace: "colors", filter: EntryFilter(parsing: "tag:warm")))
        #expect(tagged.rows.map(\.key) == ["1"] && tagged.rows.first?.tags == ["warm"])
        let expiring = try inspector.entries(
            RedisEntryQuery(namespace: "colors", filter: EntryFilter(parsing: "ttl<1h")))
        #expect(expiring.rows.map(\.key) == ["3"])
        let never = try inspector.entries(RedisEntryQuery(namespace: "colors", filter: EntryFilter(parsing: "never")))
        #expect(Set(never.rows.map(\.key)) == ["1", "2"])
        #expect(throws: EntryFilterError.self) {
            try inspector.entries(RedisEntryQuery(namespace: "colors", filter: EntryFilter(parsing: "hits=0")))
        }
        #expect(throws: InspectorError.noSuchNamespace("nope")) {
            try inspector.entries(RedisEntryQuery(namespace: "nope"))
        }
    }

    @Test func aPrefixWithGlobCharactersMatchesOnlyItself() throws {
        let store = try store()
        let odd = try store.cache("odd*[ns]", key: String.self, value: Int.self)
        try odd.set(1, for: "a*b")
        try odd.set(2, for: "axb")
        try odd.set(3, for: "a*bc")
        let page = try inspector().entries(
            RedisEntryQuery(namespace: "odd*[ns]", filter: EntryFilter(parsing: "prefix:a*b")))
        #expect(Set(page.rows.map(\.key)) == ["a*b", "a*bc"])
    }

    @Test func oneEntryInFull() throws {
        _ = try fillSmall()
        let inspector = try inspector()
        let detail = try #require(try inspector.entry(namespace: "users", key: "alice"))
        guard case .json(let text, false) = detail.value else {
            Issue.record("expected JSON, got \(detail.value)")
            return
        }
        #expect(text.contains("\"age\" : 41") || text.contains("\"age\": 41"))
        #expect(detail.entry.valueBytes == 10 && detail.entry.size == 15 && !detail.isExpired)
        let blue = try #require(try inspector.entry(namespace: "colors", key: "3"))
        let expires = try #require(blue.entry.expiresAt)
        #expect((590_000...600_000).contains(expires - blue.now))
        #expect(blue.entry.staleUntil == expires + NamespacePolicy.defaultStaleWindow.milliseconds)
        let red = try #require(
            try inspector.entry(namespace: "colors", key: "1", options: EntryDetailOptions(format: .hexDump)))
        guard case .hexDump(let lines, false) = red.value else {
            Issue.record("expected a hex dump")
            return
        }
        #expect(lines.first?.ascii == "\"red\"" && red.entry.tags == ["warm"])
        #expect(try inspector.entry(namespace: "colors", key: "9") == nil)
        #expect(try inspector.entry(namespace: "nope", key: "1") == nil)
    }

    @Test func theExpiryTimelineFromTheCensus() throws {
        _ = try fillSmall()
        let census = try inspector().census()
        try census.finish()
        let timeline = try census.expiryTimeline(namespace: "colors")
        let buckets = Dictionary(uniqueKeysWithValues: timeline.buckets.map { ($0.kind, $0.entries) })
        #expect(buckets[.withinHour] == 1 && buckets[.never] == 2 && buckets[.expired] == 0)
        #expect(timeline.hourly[0].entries == 1)
        let all = try census.expiryTimeline()
        #expect(all.buckets.reduce(0) { $0 + $1.entries } == 5)
        #expect(all.buckets.first { $0.kind == .withinDay }?.entries == 2)
        #expect(throws: InspectorError.noSuchNamespace("nope")) { try census.expiryTimeline(namespace: "nope") }
    }

    @Test func telemetryFromTwoStoresIsTwoHostsWithTheirCounters() throws {
        let first = try store()
        let second = try store()
        let colorsA = try first.cache("colors", key: Int.self, value: String.self, policy: .databaseOnly)
        let colorsB = try second.cache("colors", key: Int.self, value: String.self, policy: .databaseOnly)
        try colorsA.set("red", for: 1)
        _ = try colorsA.get(1)
        _ = try colorsB.get(1)
        _ = try colorsB.get(2)
        try first.flushTelemetry()
        try second.flushTelemetry()
        let inspector = try inspector()
        let clients = try inspector.clients()
        #expect(Set(clients.map(\.id)) == Set([first.clientID, second.clientID].compactMap { $0 }))
        #expect(clients.allSatisfy { $0.isLive && !$0.host.isEmpty })
        let byClient = try inspector.statisticsByClient()
        let firstID = try #require(first.clientID)
        let secondID = try #require(second.clientID)
        let a = try #require(byClient[firstID]?.namespaces["colors"])
        let b = try #require(byClient[secondID]?.namespaces["colors"])
        #expect(a.sets == 1 && a.diskHits == 1 && b.diskHits == 1 && b.misses == 1)
        let shared = try first.sharedStatistics()
        #expect(try inspector.sharedStatistics() == shared)
    }

    @Test func activityOverTheHourSumsEveryHostsMinutes() throws {
        // 1,700,000,040 s is the start of a minute.
        let minute: Int64 = 1_700_000_040_000
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_700_000_040))
        let first = try fixture.open(clock: clock)
        let second = try fixture.open(clock: clock)
        let colorsA = try first.cache("colors", key: Int.self, value: String.self, policy: .databaseOnly)
        let colorsB = try second.cache("colors", key: Int.self, value: String.self, policy: .databaseOnly)
        let usersB = try second.cache("users", key: Int.self, value: String.self, policy: .databaseOnly)
        try colorsA.set("red", for: 1)
        // Minute one: 1 hit and 1 miss on the first host, 2 hits and 1 miss on the second.
        clock.advance(by: .seconds(10))
        _ = try colorsA.get(1)
        _ = try colorsA.get(2)
        _ = try colorsB.get(1)
        _ = try colorsB.get(1)
        _ = try colorsB.get(3)
        try first.flushTelemetry()
        try second.flushTelemetry()
        // Two minutes later: 1 miss on the first host, 1 hit on the second and a miss in users.
        clock.advance(by: .seconds(120))
        _ = try colorsA.get(4)
        _ = try colorsB.get(1)
        _ = try usersB.get(1)
        try first.flushTelemetry()
        try second.flushTelemetry()

        let inspector = try inspector()
        let now = minute + 150_000
        let overall = try inspector.activity(namespace: nil, over: .hour, now: now)
        #expect(overall.points.count == 60 && overall.now == now)
        let oldest = try #require(overall.points.first)
        #expect(oldest.start == minute + 120_000 - 59 * 60_000)
        let counted = overall.points.filter { $0.requests > 0 }
        #expect(counted.map(\.start) == [minute, minute + 120_000])
        #expect(counted.map(\.hits) == [3, 1] && counted.map(\.misses) == [2, 2])
        #expect(counted.map(\.hitRate) == [0.6, 1.0 / 3])
        #expect(overall.points.last?.durationMilliseconds == 30_000)
        #expect(overall.total.hits == 4 && overall.total.misses == 4 && overall.total.sets == 1)

        let colors = try inspector.activity(namespace: "colors", over: .hour, now: now)
        #expect(colors.points.filter { $0.requests > 0 }.map(\.hitRate) == [0.6, 0.5])
        let users = try inspector.activity(namespace: "users", over: .hour, now: now)
        #expect(users.total.misses == 1 && users.total.hits == 0)
        // The day window sums the same minutes into its 30-minute points.
        let day = try inspector.activity(namespace: nil, over: .day, now: now)
        #expect(day.points.count == 48 && day.total.hits == 4 && day.total.misses == 4)
    }

    @Test func minuteBucketsExpireWithTheRetentionOfOneMinuteBuckets() throws {
        let minute: Int64 = 1_700_000_040_000
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_700_000_040))
        let keys = RedisKeys(prefix: RedisStoreOptions.defaultPrefix)
        let standard = try fixture.open(clock: clock)
        _ = try standard.cache("colors", key: Int.self, value: String.self, policy: .databaseOnly).get(1)
        try standard.flushTelemetry()
        for namespace in ["colors", nil] {
            let life = try #require(
                Int64(fixture.server.cli("PTTL", keys.minuteStatistics(namespace: namespace, minute: minute))))
            #expect(life > 86_400_000 - 60_000 && life <= 86_400_000)
        }

        var options = fixture.options(clock: clock)
        options.statistics.retention = TelemetryRetention(tiers: [
            .init(resolution: .seconds(1), keptFor: .seconds(600)),
            .init(resolution: .seconds(60), keptFor: .seconds(7200)),
        ])
        let shorter = try RedisStore(
            url: fixture.server.url, options: options, redis: RedisStoreOptions(prefix: "short:", environment: [:]))
        _ = try shorter.cache("colors", key: Int.self, value: String.self, policy: .databaseOnly).get(1)
        try shorter.flushTelemetry()
        let key = RedisKeys(prefix: "short:").minuteStatistics(namespace: "colors", minute: minute)
        let life = try #require(Int64(fixture.server.cli("PTTL", key)))
        #expect(life > 7_200_000 - 60_000 && life <= 7_200_000)
    }

    @Test func anEmptyDatabaseHoldsNoStore() throws {
        try fixture.server.cli("SET", "other", "1")
        #expect(try !inspector().holdsStore())
        #expect(
            try RedisStoreInspector(url: fixture.server.url, prefix: "elsewhere:", environment: [:]).holdsStore()
                == false)
    }

    @Test func itSendsOnlyReadCommands() throws {
        _ = try fillSmall()
        let acl = try fixture.server.cli(
            "ACL", "SETUSER", "reader", "on", ">secret", "~*", "&*", "-@all", "+@read", "+@connection", "+info")
        #expect(acl == "OK")
        try fixture.server.cli("ACL", "LOG", "RESET")
        let inspector = try inspector("redis://reader:secret@127.0.0.1:\(fixture.server.port)/0")
        #expect(try inspector.holdsStore())
        _ = try inspector.server()
        let census = inspector.census(batchSize: 1)
        try census.finish()
        _ = try census.expiryTimeline()
        let page = try inspector.entries(
            RedisEntryQuery(namespace: "colors", filter: EntryFilter(parsing: "regex:[0-9]"), limit: 2))
        _ = try page.next.map {
            try inspector.entries(
                RedisEntryQuery(namespace: "colors", filter: EntryFilter(parsing: "regex:[0-9]"), limit: 2, after: $0))
        }
        _ = try inspector.entry(namespace: "users", key: "alice")
        _ = try inspector.sharedStatistics()
        _ = try inspector.activity(over: .hour)
        #expect(try fixture.server.cli("ACL", "LOG") == "")
    }
}
