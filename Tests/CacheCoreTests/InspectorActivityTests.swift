import Foundation
import Testing

@testable import CacheCore

/// The inspector's live data: attached processes and telemetry as last-minute figures and
/// as series for graphs.
@Suite struct InspectorActivityTests {
    /// A store whose telemetry is written only when a test flushes it.
    static func quietStore() throws -> TestStore {
        try TestStore { $0.statistics.telemetryInterval = .seconds(3600) }
    }

    @Test func theSummaryListsAttachedProcessesLiveAndStale() throws {
        let fixture = try Self.quietStore()
        try fixture.store.flushTelemetry()
        let other = try fixture.reopen { $0.statistics.telemetryInterval = .seconds(3600) }
        try other.flushTelemetry()
        fixture.clock.advance(by: .seconds(5))
        try other.close()
        try fixture.execute(
            """
            INSERT INTO clients (pid, host, program, started_at, last_seen, heartbeat_interval)
            VALUES (2147483646, '\(ProcessIdentity.hostName)', 'gone', 0, \(fixture.clock.nowMilliseconds()), 3600000)
            """)

        let summary = try fixture.inspectionStore().inspector.summary()
        let mine = try #require(fixture.store.clientID)
        #expect(
            summary.processes.map(\.program) == Array(repeating: ProcessInfo.processInfo.processName, count: 2) + [
                "gone"
            ])
        let first = summary.processes[0]
        #expect(first.id == mine && first.pid == getpid() && first.host == ProcessIdentity.hostName)
        #expect(first.startedAt == fixture.clock.nowMilliseconds() - 5000)
        #expect(first.lastHeartbeatAt == fixture.clock.nowMilliseconds() - 5000)
        #expect(first.heartbeatIntervalMilliseconds == 3_600_000 && first.stoppedAt == nil && first.isLive)
        #expect(summary.processes[1].stoppedAt == fixture.clock.nowMilliseconds() && !summary.processes[1].isLive)
        #expect(!summary.processes[2].isLive, "no process has that pid on this host")
        #expect(summary.liveProcessCount == 1)

        fixture.clock.advance(by: .seconds(3 * 3600 + 1))
        #expect(try fixture.store.inspector.processes().allSatisfy { !$0.isLive }, "three heartbeats missed")
    }

    @Test func summariesCarryTheLastMinuteOfEveryProcess() throws {
        let fixture = try Self.quietStore()
        let colors = try fixture.store.cache("colors", key: Int.self, value: String.self)
        let other = try fixture.reopen { $0.statistics.telemetryInterval = .seconds(3600) }
        let sizes = try other.cache("sizes", key: Int.self, value: Int.self)
        for key in 0..<12 { try colors.set("c\(key)", for: key) }
        for key in 0..<16 { _ = try colors.get(key) }  // 12 hits, 4 misses
        try fixture.store.flushTelemetry()
        fixture.clock.advance(by: .seconds(30))
        _ = try sizes.get(1)
        try other.flushTelemetry()

        let inspector = try fixture.inspectionStore().inspector
        let summary = try inspector.summary()
        let now = fixture.clock.nowMilliseconds()
        #expect(summary.lastMinute.start == now - 60_000 && summary.lastMinute.durationMilliseconds == 60_000)
        #expect(summary.lastMinute.hits == 12 && summary.lastMinute.misses == 5 && summary.lastMinute.sets == 12)
        #expect(summary.lastMinute.requests == 17 && summary.lastMinute.hitRate == 12.0 / 17)
        #expect(summary.lastMinute.operationsPerSecond == 29.0 / 60)

        let namespaces = try inspector.namespaces()
        #expect(namespaces.map(\.name) == ["colors", "sizes"])
        let colorsMinute = namespaces[0].lastMinute
        #expect(colorsMinute.hitRate == 0.75 && colorsMinute.health == .good && colorsMinute.requests == 16)
        #expect(colorsMinute.operationsPerSecond == 28.0 / 60 && colorsMinute.evictionsPerSecond == 0)
        let sizesMinute = namespaces[1].lastMinute
        #expect(sizesMinute.hitRate == 0 && sizesMinute.health == .unknown, "one request is too few to judge")
        #expect(try inspector.namespace("colors").lastMinute == colorsMinute)
        #expect(try inspector.activity(last: .seconds(60)) == summary.lastMinute)
        #expect(try inspector.activity(namespace: "colors", last: .seconds(60)) == colorsMinute)
        let lastTen = try inspector.activity(last: .seconds(10))
        #expect(lastTen.requests == 1 && lastTen.durationMilliseconds == 10_000, "the bucket starting now counts")

        fixture.clock.advance(by: .seconds(31))
        let later = try inspector.namespace("colors").lastMinute
        #expect(later.requests == 0 && later.hitRate == nil && later.health == .unknown)
        #expect(try inspector.namespace("sizes").lastMinute.requests == 1, "flushed 31 s ago")
        #expect(try inspector.summary().lastMinute.requests == 1)
    }

    @Test func aSeriesHasOnePointPerBucketOldestFirst() throws {
        let fixture = try Self.quietStore()
        let cache = try fixture.store.cache("a", key: Int.self, value: Int.self)
        let other = try fixture.store.cache("b", key: Int.self, value: Int.self)
        let origin = fixture.clock.nowMilliseconds()  // a multiple of 5 s
        for tick in 0..<4 {
            for _ in 0...tick { _ = try cache.get(1) }
            try other.set(tick, for: tick)
            try fixture.store.flushTelemetry()
            fixture.clock.advance(by: .seconds(5))
        }
        fixture.clock.advance(by: .seconds(2))  // 2 s into the bucket after the last flush

        let inspector = try fixture.inspectionStore().inspector
        let series = try inspector.activity(over: .fiveMinutes)
        let now = fixture.clock.nowMilliseconds()
        #expect(series.namespace == nil && series.now == now && series.points.count == 60)
        #expect(series.points.last?.start == origin + 20_000 && series.points.last?.durationMilliseconds == 2000)
        #expect(series.points.dropLast().allSatisfy { $0.durationMilliseconds == 5000 })
        #expect(zip(series.points, series.points.dropFirst()).allSatisfy { $0.end == $1.start })
        let recent = series.points.suffix(5)
        #expect(recent.map(\.misses) == [1, 2, 3, 4, 0])
        #expect(recent.map(\.sets) == [1, 1, 1, 1, 0])
        #expect(recent.map(\.operationsPerSecond) == [0.4, 0.6, 0.8, 1.0, 0])
        #expect(recent.last?.hitRate == nil && series.points[0].requests == 0)
        #expect(series.total.misses == 10 && series.total.start == series.points[0].start)
        #expect(series.total.end == now)

        let onlyA = try inspector.activity(namespace: "a", over: .fiveMinutes)
        #expect(onlyA.points.suffix(5).map(\.sets) == [0, 0, 0, 0, 0] && onlyA.total.misses == 10)
        #expect(try inspector.activity(namespace: "nothing", over: .fiveMinutes).total.requests == 0)

        let hour = try inspector.activity(over: .hour)
        #expect(hour.points.count == 60 && hour.total.misses == 10 && hour.points.last?.end == now)
        #expect(hour.points.filter { $0.requests > 0 }.count <= 2, "20 s of telemetry falls in one or two minutes")
    }

    @Test func aSeriesAlignedToNowEndsWithAFullBucket() throws {
        let fixture = try Self.quietStore()
        let cache = try fixture.store.cache("a", key: Int.self, value: Int.self)
        _ = try cache.get(1)
        try fixture.store.flushTelemetry()
        fixture.clock.advance(by: .seconds(5))
        let series = try fixture.store.inspector.activity(over: .fiveMinutes)
        #expect(series.points.last?.durationMilliseconds == 5000 && series.points.last?.misses == 1)
        #expect(series.points.last?.end == fixture.clock.nowMilliseconds())
    }

    @Test func activityBetweenTwoTimesCountsTheBucketsStartingInTheSpan() throws {
        let fixture = try Self.quietStore()
        let cache = try fixture.store.cache("a", key: Int.self, value: Int.self)
        let start = fixture.clock.nowMilliseconds()
        for _ in 0..<3 {
            try cache.set(1, for: 1)
            try fixture.store.flushTelemetry()
            fixture.clock.advance(by: .seconds(1))
        }
        let inspector = fixture.store.inspector
        let all = try inspector.activity(from: start, until: start + 3000)
        #expect(all.sets == 3 && all.durationMilliseconds == 3000 && all.perSecond(all.sets) == 1)
        #expect(try inspector.activity(from: start + 1000, until: start + 2000).sets == 1)
        #expect(try inspector.activity(namespace: "b", from: start, until: start + 3000).sets == 0)
        #expect(try inspector.activity(from: start + 3000, until: start).durationMilliseconds == 0)
    }

    @Test func coarserBucketsCountWhereTheyStart() throws {
        let fixture = try Self.quietStore()
        let now = fixture.clock.nowMilliseconds()
        let minute = now - now % 60_000 - 120_000
        try fixture.execute(
            """
            INSERT INTO stats (resolution, bucket, namespace, client_id, disk_hits, misses, evictions)
            VALUES (60000, \(minute), 'a', 1, 30, 10, 120), (3600000, \(now - now % 3_600_000 - 7_200_000), 'a', 1, 5, 5, 0)
            """)
        let inspector = fixture.store.inspector
        let series = try inspector.activity(over: .fiveMinutes)
        let point = try #require(series.points.first { $0.start == minute })
        #expect(point.hits == 30 && point.misses == 10 && point.hitRate == 0.75 && point.evictionsPerSecond == 24)
        #expect(series.total.requests == 40, "the hour bucket started before the window")
        #expect(try inspector.activity(over: .day).total.requests == 50)
    }

    @Test func windowsChooseTheirPointsAndStayBounded() {
        #expect(TelemetryWindow.fiveMinutes.pointCount == 60)
        #expect(TelemetryWindow.hour.pointCount == 60)
        #expect(TelemetryWindow.day.pointCount == 48)
        let odd = TelemetryWindow(duration: .seconds(10), resolution: .seconds(3))
        #expect(odd.pointCount == 4)
        let fine = TelemetryWindow(duration: .seconds(86400), resolution: .milliseconds(1))
        #expect(fine.pointCount <= TelemetryWindow.maximumPoints && fine.resolutionMilliseconds == 8640)
        let coarse = TelemetryWindow(duration: .seconds(1), resolution: .seconds(60))
        #expect(coarse.pointCount == 1 && coarse.resolutionMilliseconds == 1000)
    }

    @Test func aCursorTravelsAsATokenAndABadTokenIsRefused() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: String.self, value: Int.self)
        for index in 0..<5 { try cache.set(index, for: "k\(index)\u{1B}/é") }
        let inspector = fixture.store.inspector
        let first = try inspector.entries(EntryQuery(namespace: "n", limit: 2))
        let token = try #require(first.next?.token)
        #expect(token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        let cursor = try EntryCursor(token: token)
        #expect(cursor == first.next)
        let second = try inspector.entries(EntryQuery(namespace: "n", limit: 2, after: cursor))
        #expect(second.rows.map(\.key) == ["k2\u{1B}/é", "k3\u{1B}/é"])
        for bad in ["", "not a token", "e30", String(token.dropLast(3))] {
            #expect(throws: InspectorError.invalidCursor) { try EntryCursor(token: bad) }
        }
    }

    @Test func liveDataReadsWriteNothing() throws {
        let fixture = try Self.quietStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try cache.set(1, for: 1)
        _ = try cache.get(1)
        try fixture.store.flushTelemetry()
        try fixture.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let bytes = fileBytes(fixture.path)
        let watcher = try SQLiteConnection(path: fixture.path, readOnly: true, create: false, busyTimeout: .seconds(5))
        let dataVersion = try watcher.scalar("PRAGMA data_version")
        for store in [try fixture.inspectionStore(), fixture.store] {
            let inspector = store.inspector
            _ = try inspector.summary()
            _ = try inspector.namespaces()
            _ = try inspector.processes()
            for window in [TelemetryWindow.fiveMinutes, .hour, .day] {
                _ = try inspector.activity(over: window)
                _ = try inspector.activity(namespace: "n", over: window)
            }
            _ = try inspector.activity(from: 0, until: fixture.clock.nowMilliseconds())
        }
        #expect(try watcher.scalar("PRAGMA data_version") == dataVersion)
        #expect(fileBytes(fixture.path) == bytes)
    }
}
