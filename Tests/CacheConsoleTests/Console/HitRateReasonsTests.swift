import CacheCore
import Foundation
import Testing

@testable import CacheConsole
import TerminalUI

/// Issue 25, "what operators missed most": why a hit rate is what it is (the figures beside
/// it, a graph scaled to its data) and the order frozen while figures update.
@Suite struct HitRateReasonsTests {
    /// The cells of the namespace table's row that starts with `name`, split on runs of spaces.
    private func row(_ name: String, in screen: String) -> [String] {
        guard let line = screen.split(separator: "\n").first(where: { $0.hasPrefix("│\(name) ") }) else { return [] }
        return line.dropFirst().dropLast().split(separator: " ").map(String.init)
    }

    @Test func atEightyColumnsTheOverviewShowsMissesAndOpsBesideTheHitRateAndUnknownsAsDashes() {
        let harness = ConsoleHarness()
        let screen = harness.screen()
        let heading = screen.split(separator: "\n").first { $0.hasPrefix("│namespace") }.map(String.init) ?? ""
        for title in ["entries", "bytes", "hit rate", "misses/m", "ops/s", "expired"] {
            #expect(heading.contains(title), "\(title) fits at 80 columns")
        }
        #expect(screen.contains("/m and ops/s: last minute"), "the table says what span the figures cover")
        #expect(row("products", in: screen).suffix(4) == ["91.2%", "106", "35.5/s", "101"])
        #expect(row("sessions", in: screen).suffix(4) == ["45.7%", "217", "8.2/s", "4"])
        // The hostile namespace's store records nothing for it: unknown, not 0.
        #expect(row("hostile", in: screen).suffix(4) == ["–", "–", "–", "0"])
    }

    @Test func widerScreensAddEvictionsExpirationsAndLoaderFailuresUnknownWithoutALoader() {
        let harness = ConsoleHarness(columns: 108, rows: 24)
        let screen = harness.screen()
        for title in ["evicted/m", "expired/m", "loadfail/m"] { #expect(screen.contains(title)) }
        // hit rate, misses, evicted, expired/m, loader failures, ops/s, expired.
        #expect(row("products", in: screen).suffix(7) == ["91.2%", "106", "3", "12", "2", "35.5/s", "101"])
        #expect(row("sessions", in: screen).suffix(7) == ["45.7%", "217", "0", "5", "–", "8.2/s", "4"])
    }

    @Test func theNewColumnsSortWithUnknownsLastEitherWay() {
        var harness = ConsoleHarness()
        harness.press(.character("o"))
        #expect(harness.screen().contains("m misses/m"), "the menu offers what the width shows")
        harness.press(.character("m"))
        let names = { (harness: ConsoleHarness<FakeDataSource>) in
            harness.model.current.overview.map { $0.ordered(harness.model.overview?.namespaces ?? []).map(\.name) }
        }
        #expect(names(harness) == ["sessions", "products", "hostile"], "most misses first, unknown last")
        harness.press(.character("S"))
        #expect(names(harness) == ["products", "sessions", "hostile"], "reversed, unknown still last")
        #expect(harness.screen().contains("misses/m ▲"))
    }

    @Test func statsSayWhatAppsDidOverTheWindowAndScaleTheHitRateToItsData() {
        var harness = ConsoleHarness(columns: 100, rows: 30)
        harness.press(.character("3"))
        var screen = harness.screen()
        #expect(
            screen.contains("Last 5 min: 20,000 reads · 1,800 misses · 40 evicted · 7 expired · 4 load failures · 2,800/s ops"))
        // The sample hit rates run from 60 % to 88.5 %: the axis follows them, and says so.
        #expect(screen.contains("Hit rate · scale 50–100 %"))
        #expect(screen.contains("50.0%") && !screen.contains("Hit rate, 0–100 %"))
        harness.press(.down, .down, .down)
        screen = harness.screen()
        #expect(screen.contains("statistics of sessions"))
        #expect(harness.model.current.view is StatisticsView)
        #expect(screen.contains("· – load failures"), "sessions has no loader: unknown, not 0")
    }

    @Test func aNarrowHitRateTrendGetsANarrowAxisAndAWideOneTheWholeRange() {
        #expect(StatisticsScreen.hitRateScale([0.79, 0.80, 0.815, 0.82, .nan]) == 0.78...0.83)
        #expect(StatisticsScreen.hitRateScale([1, 1, 1]) == 0.99...1)
        #expect(StatisticsScreen.hitRateScale([0.1, 0.95]) == 0...1)
        #expect(StatisticsScreen.hitRateScale([.nan]) == 0...1)
        // Drawn on that axis, a 79–82 % trend climbs through the graph's rows instead of lying
        // flat at its top.
        var buffer = ScreenBuffer(size: Size(columns: 10, rows: 4))
        let values = [0.79, 0.795, 0.80, 0.805, 0.81, 0.812, 0.815, 0.817, 0.819, 0.82]
        buffer.drawGraph(
            values, in: Rect(column: 0, row: 0, columns: 10, rows: 4),
            range: StatisticsScreen.hitRateScale(values), glyphs: .ascii)
        let filled = (0..<10).map { column in
            (0..<4).filter { buffer[Point(column: column, row: $0)]?.text == "#" }.count
        }
        #expect(filled.first ?? 0 < filled.last ?? 0, "\(filled)")
    }

    @Test func freezingKeepsEveryRowInPlaceWhileItsFiguresUpdate() {
        let source = FakeDataSource()
        var harness = ConsoleHarness(source: source)
        harness.press(.down, .enter, .character("o"), .character("h"))
        harness.press(.down, .down, .down)
        let selected = harness.model.current.entries?.window.selectedRow
        let key = selected?.key ?? ""
        harness.press(.character("F"))
        #expect(harness.screen().contains("Order frozen: rows stay where they are"))
        // The row under the cursor becomes the most read: the order would put it on top.
        source.change { namespaces in
            if let index = namespaces["products"]?.firstIndex(where: { $0.key == key }) {
                namespaces["products"]?[index].hits = 5_000
            }
        }
        harness.wait(1_000)
        let window = harness.model.current.entries?.window
        #expect(window?.selection == 3 && window?.selectedRow?.key == key, "the row stayed where it was")
        #expect(window?.selectedRow?.hits == 5_000, "its figures still update")
        harness.wait(6_000)
        #expect(harness.model.current.entries?.window.selectedRow?.key == key)
        #expect(harness.screen().contains("order frozen (F)"), "the status line says so once the message faded")
        harness.press(.character("F"))
        #expect(!harness.screen().contains("order frozen"))
        #expect(harness.model.current.entries?.window.row(at: 0)?.key == key, "live again, it moves to the top")
    }

    @Test func withoutFreezingTheSameChangeMovesTheRow() {
        let source = FakeDataSource()
        var harness = ConsoleHarness(source: source)
        harness.press(.down, .enter, .character("o"), .character("h"), .down, .down, .down)
        let key = harness.model.current.entries?.window.selectedRow?.key ?? ""
        source.change { namespaces in
            if let index = namespaces["products"]?.firstIndex(where: { $0.key == key }) {
                namespaces["products"]?[index].hits = 5_000
            }
        }
        harness.wait(1_000)
        #expect(harness.model.current.entries?.window.row(at: 0)?.key == key)
    }

    @Test func aFrozenOverviewPutsNewNamespacesLastAndASortFreezesTheNewOrder() {
        let source = FakeDataSource()
        var harness = ConsoleHarness(source: source)
        harness.press(.character("F"))
        source.change { $0["aardvark"] = [] }
        harness.wait(1_000)
        let names = {
            harness.model.current.overview.map { $0.ordered(harness.model.overview?.namespaces ?? []).map(\.name) }
        }
        #expect(names() == ["hostile", "products", "sessions", "aardvark"])
        harness.press(.character("s"))
        #expect(names() == ["products", "sessions", "hostile", "aardvark"], "by entries, then frozen again")
        harness.press(.character("F"))
        #expect(names() == ["products", "sessions", "hostile", "aardvark"])
        harness.press(.character("o"), .character("n"))
        #expect(names() == ["aardvark", "hostile", "products", "sessions"])
    }

    @Test func theHelpListsFreezeAndTheComingHour() {
        var harness = ConsoleHarness(columns: 100, rows: 60)
        harness.press(.character("?"))
        let screen = harness.screen()
        #expect(screen.contains("Freeze / unfreeze the order"))
        #expect(screen.contains("expire in the coming hour"))
    }

    @Test func aFileStoreCountsTheLastMinutesMissesAndLoaderFailuresOnlyWhereALoaderRan() async throws {
        struct Unavailable: Error {}
        let folder = TemporaryFolder()
        // A clock that stands still: however slow the machine, every read falls in the last minute.
        let clock = ManualClock(start: Date(timeIntervalSince1970: Double(FakeDataSource.now + 2_500) / 1000))
        let store = try CacheStore(
            path: folder.url.appendingPathComponent("why.sqlite").path, options: StoreOptions(clock: clock))
        let loaded = try store.cache("loaded", key: String.self, value: String.self)
        let plain = try store.cache("plain", key: String.self, value: String.self)
        try plain.set("v", for: "here")
        for key in ["here", "gone", "nope"] { _ = try plain.get(key) }
        _ = try await loaded.value(for: "a") { _ in "loaded" }
        _ = try? await loaded.value(for: "b") { _ in throw Unavailable() }
        try store.flushTelemetry()

        let source = try StoreDataSource(store: store)
        let facts = Dictionary(uniqueKeysWithValues: try source.overview().namespaces.map { ($0.name, $0) })
        let plainMinute = try #require(facts["plain"]?.lastMinute)
        #expect(plainMinute.requests == 3 && plainMinute.misses == 2)
        #expect(plainMinute.loadFailures == nil, "no loader ran in plain: unknown, not 0")
        let loadedMinute = try #require(facts["loaded"]?.lastMinute)
        #expect(loadedMinute.loadFailures == 1 && loadedMinute.misses == 2)
        let statistics = try source.statistics(window: .fiveMinutes)
        #expect(statistics.overall.totals?.misses == 4 && statistics.overall.totals?.loadFailures == 1)
        #expect(statistics.namespaces["plain"]?.totals?.loadFailures == nil)
    }
}
