import CacheCore
import Testing

@testable import CacheConsole
import TerminalUI

/// The cursor stays on its entry by identity while a writer reorders the list beyond the rows
/// a refresh reads again, and keys act on the entry under it.
@Suite struct EntriesCursorTests {
    /// 3,000 tiles, `tile-00000` read last, then one a second older each.
    private func tiles() -> ConsoleHarness<FakeDataSource> {
        let rows = (0..<3000).map { (index: Int) -> EntryInfo in
            let key = "tile-" + String(String(100_000 + index).dropFirst())
            let accessed: Int64 = FakeDataSource.now - Int64(index) * 1000
            return EntryInfo(
                id: .row(Int64(index + 1)), key: key, size: 100, createdAt: FakeDataSource.now - 10_000_000,
                expiresAt: nil, lastAccessAt: accessed, hits: 1, tags: [])
        }
        var harness = ConsoleHarness(source: FakeDataSource(entries: ["tiles": rows]))
        harness.press(.enter, .character("o"), .character("l"))
        return harness
    }

    private func selected(_ harness: ConsoleHarness<FakeDataSource>) -> String? {
        harness.rows(styled: .selection).first
    }

    /// Sets the last access of tile `index` (the writer read it, or its neighbours).
    private func access(_ harness: ConsoleHarness<FakeDataSource>, tile index: Int, at time: Int64) {
        harness.source.change { namespaces in
            namespaces["tiles"]?[index].lastAccessAt = time
        }
    }

    @Test func theCursorFollowsItsEntryToTheEndOfTheOrderAndReadsTheRowsAboveIt() {
        var harness = tiles()
        for _ in 0..<172 { harness.press(.down) }
        #expect(selected(harness)?.contains("tile-00172") == true)
        #expect(harness.screen().contains("row 173 of 3,000"))
        let screenRow = harness.screen().split(separator: "\n").firstIndex { $0.contains("tile-00172") }
        access(harness, tile: 172, at: FakeDataSource.now - 100_000_000)
        harness.wait(1000)
        #expect(selected(harness)?.contains("tile-00172") == true, "the entry moved to the last row")
        #expect(harness.screen().contains("row 3,000 of 3,000"))
        #expect(
            harness.screen().split(separator: "\n").firstIndex { $0.contains("tile-00172") } == screenRow,
            "it stays on the same screen row")
        harness.press(.up)
        #expect(selected(harness)?.contains("tile-02999") == true, "the rows above it are read upwards")
        harness.press(.pageUp, .pageUp)
        let above = harness.screen()
        #expect(selected(harness)?.contains("tile-02967") == true && above.contains("row 2,967 of 3,000"))
        harness.press(.character("d"))
        #expect(harness.screen().contains("Invalidate tiles/tile-02967"), "d asks about the entry under the cursor")
    }

    @Test func theCursorFollowsItsEntryFromFarDownToTheTop() throws {
        var harness = tiles()
        for _ in 0..<60 { harness.press(.pageDown) }
        let key = try #require(selected(harness)?.split(separator: " ").first { $0.hasPrefix("tile-") })
        let index = try #require(Int(key.dropFirst(5)))
        #expect(index > 900)
        access(harness, tile: index, at: FakeDataSource.now + 1000)
        harness.wait(1000)
        #expect(selected(harness)?.contains(key) == true)
        #expect(harness.screen().contains("row 1 of 3,000"))
        harness.press(.enter)
        #expect(harness.screen().contains("tiles › \(key)"), "Enter opens the entry under the cursor")
    }

    /// Rows a writer adds above the screen, pages before it, count in the row number at once.
    @Test func theRowNumberCountsRowsAddedFarAboveTheScreen() {
        var harness = tiles()
        for _ in 0..<40 { harness.press(.pageDown) }
        let before = harness.screen()
        #expect(before.contains("row 641 of 3,000") && selected(harness)?.contains("tile-00640") == true)
        harness.source.change { namespaces in
            for index in 0..<5 {
                namespaces["tiles"]?.append(
                    EntryInfo(
                        id: .row(Int64(10_000 + index)), key: "new-\(index)", size: 100, createdAt: FakeDataSource.now,
                        expiresAt: nil, lastAccessAt: FakeDataSource.now + 1000, hits: 1, tags: []))
            }
        }
        harness.wait(1000)
        #expect(selected(harness)?.contains("tile-00640") == true)
        #expect(harness.screen().contains("row 646 of 3,005"))
        access(harness, tile: 640, at: FakeDataSource.now - 100_000_000)
        harness.wait(1000)
        #expect(harness.screen().contains("row 3,005 of 3,005"))
        harness.source.change { namespaces in
            namespaces["tiles"]?.removeFirst(10)
        }
        harness.wait(1000)
        #expect(harness.screen().contains("row 2,995 of 2,995") && selected(harness)?.contains("tile-00640") == true)
    }

    @Test func aGapIsReadUpToTheFirstRowAndGJumpsThere() {
        var harness = tiles()
        for _ in 0..<10 { harness.press(.down) }
        access(harness, tile: 10, at: FakeDataSource.now - 100_000_000)
        harness.wait(1000)
        #expect(harness.screen().contains("row 3,000 of 3,000"))
        harness.press(.character("g"))
        #expect(selected(harness)?.contains("tile-00000") == true)
        #expect(harness.screen().contains("row 1 of 3,000"))
    }
}
