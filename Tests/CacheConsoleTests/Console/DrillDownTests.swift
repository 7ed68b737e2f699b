import CacheCore
import Foundation
import Testing

@testable import CacheConsole
import TerminalUI

/// Issue 25: `Enter` on a timeline range or hour opens exactly the entries it counts (a
/// filter on the Entries view whose exact count is the bar's), and `E` asks what expires in
/// the coming hour. Over a real file whose clock stands still.
@Suite struct DrillDownTests {
    private static let minute: Int64 = 60_000
    private static let start: Int64 = FakeDataSource.now

    /// A file with entries in every range: 3 expired, 5 within a minute, 4 within five,
    /// 6 within the hour, 7 within the day (in hours 1, 2 and 30), 2 later, 8 never.
    private func file() throws -> (StoreDataSource, TemporaryFolder) {
        let folder = TemporaryFolder()
        let clock = ManualClock(start: Date(timeIntervalSince1970: Double(Self.start - 10 * Self.minute) / 1000))
        let store = try CacheStore(
            path: folder.url.appendingPathComponent("drill.sqlite").path, options: StoreOptions(clock: clock))
        let tiles = try store.cache("tiles", key: String.self, value: String.self)
        func put(_ prefix: String, _ count: Int, _ expiration: Expiration) throws {
            for index in 0..<count { try tiles.set("v", for: "\(prefix)\(index)", expiration: expiration) }
        }
        try put("gone-", 3, .after(.seconds(60)))
        clock.advance(by: .seconds(600))
        let minutes = { (count: Int64) in Expiration.after(.milliseconds(count * Self.minute)) }
        try put("a-", 5, .after(.seconds(30)))
        try put("b-", 4, minutes(3))
        try put("c-", 6, minutes(30))
        try put("d-", 3, minutes(90))
        try put("e-", 2, minutes(150))
        try put("f-", 2, minutes(30 * 60 + 10))
        try put("g-", 2, minutes(9 * 24 * 60))
        try put("h-", 8, .never)
        try store.cache("other", key: String.self, value: String.self).set("x", for: "soon", expiration: minutes(5))
        return (try StoreDataSource(store: store), folder)
    }

    private func matching(_ harness: ConsoleHarness<StoreDataSource>) -> Int? {
        harness.model.current.entries?.matchCount
    }

    @Test func enterOnEveryRangeOpensExactlyTheEntriesItCounts() throws {
        let (source, folder) = try file()
        _ = folder
        var harness = ConsoleHarness(columns: 100, rows: 30, source: source, now: Self.start)
        harness.press(.down, .enter, .character("t"))
        let timeline = try #require((harness.model.current.view as? TimelineView)?.snapshot)
        #expect(timeline.buckets.map(\.entries) == [3, 5, 4, 6, 5, 2, 2, 8])
        for (index, bucket) in timeline.buckets.enumerated() {
            harness.press(.character("g"))
            for _ in 0..<index { harness.press(.down) }
            harness.press(.enter)
            let entries = try #require(harness.model.current.entries, "\(bucket.kind)")
            #expect(entries.namespace == "tiles")
            #expect(matching(harness) == bucket.entries, "\(bucket.kind): \(entries.filter)")
            if bucket.entries > 0 { #expect(harness.screen().contains("(\(bucket.entries) matching)")) }
            harness.press(.escape, .escape)
            #expect(harness.model.current.view is TimelineView)
        }
    }

    @Test func enterOnAnHourOpensItsEntriesAndTheTitleSaysItsCount() throws {
        let (source, folder) = try file()
        _ = folder
        var harness = ConsoleHarness(columns: 100, rows: 30, source: source, now: Self.start)
        harness.press(.down, .enter, .character("t"), .tab)
        let hourly = try #require((harness.model.current.view as? TimelineView)?.snapshot?.hourly)
        #expect(hourly[0] == 15 && hourly[1] == 3 && hourly[2] == 2 && hourly[30] == 2)
        #expect(harness.screen().contains("coming hour: 15"))
        harness.press(.right, .right)
        #expect(harness.screen().contains("+2h to +3h: 2"))
        harness.press(.enter)
        #expect(matching(harness) == 2)
        #expect(harness.model.current.entries?.window.heldRows.map(\.key).sorted() == ["e-0", "e-1"])
        harness.press(.escape, .escape, .character("E"))
        #expect(matching(harness) == hourly[0], "E asks for the coming hour from the timeline")
    }

    @Test func eAsksWhatExpiresInTheComingHourFromTheOverviewAndTheEntries() throws {
        let (source, folder) = try file()
        _ = folder
        var harness = ConsoleHarness(columns: 100, rows: 30, source: source, now: Self.start)
        harness.press(.character("E"))
        #expect(harness.model.current.entries?.namespace == "other" && matching(harness) == 1)
        harness.press(.escape, .escape, .down, .character("E"))
        #expect(harness.model.current.entries?.namespace == "tiles")
        #expect(matching(harness) == 15)
        harness.press(.escape)
        #expect(harness.model.current.entries?.filter == "")
        harness.press(.character("E"))
        #expect(matching(harness) == 15, "in the Entries view, E filters it")
        #expect(harness.model.current.entries?.sort == EntrySort(.expires), "soonest first")
    }

    @Test func theTimelineOfEveryNamespaceSaysWhereToDrillIn() throws {
        let (source, folder) = try file()
        _ = folder
        var harness = ConsoleHarness(columns: 100, rows: 30, source: source, now: Self.start)
        harness.press(.character("2"), .enter)
        #expect(harness.model.current.view is TimelineView)
        #expect(harness.screen().contains("open a namespace"))
    }

    @Test func theExpiresTermParsesPrintsAndRefusesNonsense() throws {
        let filter = try EntryFilter(parsing: "expires>=2026-11-27T03:00:00Z expires<2026-11-27T04:00:00.250Z")
        #expect(
            filter.terms == [
                .expiresAt(.greaterOrEqual, milliseconds: 1_795_748_400_000),
                .expiresAt(.less, milliseconds: 1_795_752_000_250),
            ])
        #expect(try EntryFilter(parsing: filter.description) == filter)
        #expect(throws: EntryFilterError.self) { try EntryFilter(parsing: "expires<soon") }
        #expect(throws: EntryFilterError.self) { try EntryFilter(parsing: "expires>99999-01-01T00:00:00Z") }
    }

    @Test func aClickSelectsARangeOrAnHourAndASecondClickOpensIt() throws {
        let (source, folder) = try file()
        _ = folder
        var harness = ConsoleHarness(columns: 100, rows: 30, source: source, now: Self.start)
        harness.press(.down, .enter, .character("t"))
        func click(column: Int, row: Int) {
            harness.handle(.input(.mouse(MouseEvent(kind: .press(.left), position: Point(column: column, row: row)))))
        }
        let lines = harness.screen().split(separator: "\n", omittingEmptySubsequences: false)
        let dayRow = try #require(lines.firstIndex { $0.hasPrefix("│1 h–1 day") })
        click(column: 3, row: dayRow)
        #expect((harness.model.current.view as? TimelineView)?.range == 4)
        click(column: 3, row: dayRow)
        #expect(matching(harness) == 5)
        harness.press(.escape, .escape)
        // The hours' axis is the row above the panel's bottom edge; hour 2's bar is 2 spacings in.
        let axisRow = try #require(lines.lastIndex { $0.contains("+12h") })
        let spacing = (100 - 2 - 1) / 48
        click(column: 2 + 2 * spacing, row: axisRow - 1)
        #expect((harness.model.current.view as? TimelineView)?.pane == .hours)
        #expect((harness.model.current.view as? TimelineView)?.hour == 2)
        click(column: 2 + 2 * spacing, row: axisRow - 1)
        #expect(matching(harness) == 2)
    }
}
