import CacheCore
import Foundation
import Testing

@testable import CacheConsole
import TerminalUI

/// Issue 25: `Enter` on a Stats bucket opens the entries written in it (an exact `created`
/// filter) with the bucket's own counts beside the filter's, and says so where a bucket only
/// removed entries. Over a real file whose clock stands still, in the 1 h window (1-minute
/// buckets): minute 0 writes a-0…a-2, minute 1 writes b-0, b-1 and a-0 again, minute 2
/// removes b-0.
@Suite struct StatisticsDrillDownTests {
    private static let start: Int64 = FakeDataSource.now  // 08:00:00 UTC

    private func file() throws -> (StoreDataSource, TemporaryFolder) {
        let folder = TemporaryFolder()
        let clock = ManualClock(start: Date(timeIntervalSince1970: Double(Self.start + 5_000) / 1000))
        let store = try CacheStore(
            path: folder.url.appendingPathComponent("stats.sqlite").path, options: StoreOptions(clock: clock))
        let tiles = try store.cache("tiles", key: String.self, value: String.self)
        // Telemetry is stamped when it is written: once a minute's work is done, here.
        for key in ["a-0", "a-1", "a-2"] { try tiles.set("v", for: key) }
        try store.flushTelemetry()
        clock.advance(by: .seconds(60))
        for key in ["b-0", "b-1", "a-0"] { try tiles.set("v", for: key) }
        try store.flushTelemetry()
        clock.advance(by: .seconds(60))
        try tiles.remove("b-0")
        try store.flushTelemetry()
        clock.advance(by: .seconds(25))
        return (try StoreDataSource(store: store), folder)
    }

    /// The Stats of tiles in the 1 h window with the cursor in the graphs (on the newest bucket).
    private func statistics() throws -> (ConsoleHarness<StoreDataSource>, TemporaryFolder) {
        let (source, folder) = try file()
        var harness = ConsoleHarness(columns: 120, rows: 30, source: source, now: Self.start + 150_000)
        harness.press(.character("3"), .down, .character("W"), .enter)
        let view = try #require(harness.model.current.view as? StatisticsView)
        #expect(view.pane == .graphs && view.window == .hour)
        return (harness, folder)
    }

    @Test func enterOnABucketListsWhatWasWrittenInItBesideTheBucketsOwnCount() throws {
        var (harness, folder) = try statistics()
        _ = folder
        harness.press(.left)
        #expect(harness.screen().contains("08:01:00–08:02:00 UTC: 3 sets · 0 reads · 0 misses · nothing removed"))
        harness.press(.enter)
        let entries = try #require(harness.model.current.entries, "no Entries view")
        #expect(entries.filter == "created>=2027-01-15T08:01:00Z created<2027-01-15T08:02:00Z")
        // Three sets in the minute, two entries still as written then (b-0 was removed since).
        #expect(entries.matchCount == 2)
        #expect(entries.window.heldRows.map(\.key).sorted() == ["a-0", "b-1"])
        let screen = harness.screen()
        #expect(screen.contains("(2 matching)"), "\(screen)")
        #expect(screen.contains("08:01:00–08:02:00 UTC counted 3 sets"), "\(screen)")

        harness.press(.escape, .escape, .left)
        #expect(harness.screen().contains("08:00:00–08:01:00 UTC: 3 sets"))
        harness.press(.enter)
        #expect(harness.model.current.entries?.matchCount == 2, "a-0 was written again in the next minute")
        #expect(harness.model.current.entries?.window.heldRows.map(\.key).sorted() == ["a-1", "a-2"])
    }

    @Test func aBucketThatOnlyRemovedSaysSoInsteadOfOpeningAnEmptyList() throws {
        var (harness, folder) = try statistics()
        _ = folder
        #expect(harness.screen().contains("08:02:00–08:03:00 UTC: 0 sets · 0 reads · 0 misses · 1 removed"))
        harness.press(.enter)
        #expect(harness.model.current.view is StatisticsView)
        #expect(harness.screen().contains("Nothing was written to tiles in 08:02:00–08:03:00 UTC"))
        #expect(harness.model.status?.text.contains("(1 removed) no longer exists") == true)
    }

    @Test func theCursorStaysOnItsMinuteAndEveryNamespaceSaysWhereToDrillIn() throws {
        var (harness, folder) = try statistics()
        _ = folder
        harness.press(.left, .left)
        harness.press(.character("W"), .character("W"), .character("W"))
        #expect((harness.model.current.view as? StatisticsView)?.bucketStart == nil, "a new window starts at now")
        harness.press(.left)
        let before = (harness.model.current.view as? StatisticsView)?.bucketStart
        harness.wait(60_000)
        #expect((harness.model.current.view as? StatisticsView)?.bucketStart == before)
        harness.press(.tab, .up, .enter, .enter)
        #expect(harness.model.current.view is StatisticsView)
        #expect(harness.screen().contains("every namespace have no one list of entries"))
    }

    @Test func graphsWithoutBucketBoundsSaySoAndDrawNoCursor() {
        // The fake source's series are points without spans, as a Redis store's sampled 5 minutes.
        var harness = ConsoleHarness(columns: 100, rows: 30)
        harness.press(.character("3"), .down, .enter)
        #expect(harness.screen().contains("Last 5 min:"), "no bucket to describe: the window's totals stay")
        harness.press(.enter)
        #expect(harness.model.current.view is StatisticsView)
        #expect(harness.model.status?.text.contains("no exact bucket bounds to list entries by") == true)
    }

    @Test func theCreatedTermParsesPrintsAndRefusesNonsense() throws {
        let filter = try EntryFilter(parsing: "created>=2026-11-27T03:00:00Z created<2026-11-27T03:01:00.5Z")
        #expect(
            filter.terms == [
                .createdAt(.greaterOrEqual, milliseconds: 1_795_748_400_000),
                .createdAt(.less, milliseconds: 1_795_748_460_500),
            ])
        #expect(try EntryFilter(parsing: filter.description) == filter)
        #expect(throws: EntryFilterError.self) { try EntryFilter(parsing: "created>yesterday") }
    }
}
