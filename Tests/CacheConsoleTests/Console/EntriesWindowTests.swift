import Testing

@testable import CacheConsole
import TerminalUI

@Suite struct EntriesWindowTests {
    private func rows(_ range: Range<Int>) -> [EntryInfo] {
        range.map { index in
            EntryInfo(
                id: .row(Int64(index)), key: "k\(index)", size: 1, createdAt: 0, expiresAt: nil, lastAccessAt: 0,
                hits: 0,
                tags: [])
        }
    }

    private func page(_ range: Range<Int>, next: Int?) -> EntriesPage {
        EntriesPage(
            rows: rows(range), next: next.map { PageToken(String($0)) }, examinedRows: 0)
    }

    @Test func aPageReadFromAStartThatMovedIsDropped() {
        var window = EntriesWindow(anchor: .top)
        _ = window.apply(page(0..<200, next: 200), at: 0, from: nil, replacing: false, height: 20)
        #expect(window.pagesToLoad(height: 20) == [], "the next page waits until the selection nears it")
        window.select(190, height: 20)
        #expect(window.pagesToLoad(height: 20) == [1])
        window.loading.insert(1)
        _ = window.apply(page(0..<150, next: 150), at: 0, from: nil, replacing: true, height: 20)
        #expect(window.pages.count == 2 && window.pages[1].start == PageToken("150"))
        _ = window.apply(page(200..<400, next: nil), at: 1, from: PageToken("200"), replacing: false, height: 20)
        #expect(window.knownCount == 150, "rows read after the old start would skip 150..<200")
        _ = window.apply(page(150..<300, next: nil), at: 1, from: PageToken("150"), replacing: false, height: 20)
        #expect(window.knownCount == 300 && window.isComplete)
    }

    @Test func theBottomAnchorCountsUpFromTheLastRow() {
        var window = EntriesWindow(anchor: .bottom)
        _ = window.apply(page(0..<5, next: nil), at: 0, from: nil, replacing: false, height: 10)
        #expect(window.bounds == -5...(-1))
        #expect(window.selectedRow?.key == "k0", "the bottom row is the first of the reversed order")
        window.move(by: -3, height: 10)
        #expect(window.selectedRow?.key == "k3")
        window.move(by: -10, height: 10)
        #expect(window.selectedRow?.key == "k4" && window.top == -5)
    }

    @Test func changedValuesAreReportedPerField() {
        var window = EntriesWindow(anchor: .top)
        _ = window.apply(page(0..<3, next: nil), at: 0, from: nil, replacing: false, height: 10)
        var changed = rows(0..<3)
        changed[1].hits = 9
        changed[2].size = 5
        changed[2].lastAccessAt = 7
        let fields = window.apply(
            EntriesPage(rows: changed, next: nil, examinedRows: 0), at: 0, from: nil,
            replacing: true, height: 10)
        #expect(fields == [1: .hits, 2: [.size, .lastAccess]])
    }
}
