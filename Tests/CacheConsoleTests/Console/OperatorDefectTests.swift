import CacheCore
import Foundation
import Testing

@testable import CacheConsole
import TerminalUI

/// The defects an operator found trying the console end to end (issue 12), one test each.
@Suite struct OperatorDefectTests {
    private func crumbs<Source>(_ harness: ConsoleHarness<Source>) -> String {
        harness.screen().split(separator: "\n", omittingEmptySubsequences: false)[1]
            .trimmingCharacters(in: .whitespaces)
    }

    @Test(arguments: ["2", "3", "4"])
    func helpReturnsToTheViewItWasOpenedFrom(view: Character) {
        for close in [Key.escape, .backspace, .character("?"), .character("q")] {
            var harness = ConsoleHarness()
            harness.press(.character(view))
            let before = crumbs(harness)
            harness.press(.character("?"))
            #expect(crumbs(harness).hasSuffix("› help"))
            harness.press(close)
            #expect(crumbs(harness) == before, "\(close) closes the help back to \(before)")
            #expect(!harness.sideEffects.contains(.quit))
        }
    }

    @Test func markingMoreThanAnActionCanTakeSaysSoWhereTheMarksAreMade() {
        let big = (0...FilterSelector.maximumKeys).map { index in
            EntryInfo(
                id: .row(Int64(index + 1)), key: "k\(index)", size: 10, createdAt: FakeDataSource.now, expiresAt: nil,
                lastAccessAt: FakeDataSource.now, hits: 0, tags: [])
        }
        var harness = ConsoleHarness(columns: 120, rows: 30, source: FakeDataSource(entries: ["big": big]))
        harness.press(.character(":"))
        harness.type("ns big")
        harness.press(.enter, .character("/"))
        harness.type("k")
        harness.press(.enter, .character("*"))
        #expect(harness.screen().contains("Not marked: the filter matches 100,001 entries"))
        #expect(harness.model.current.entries?.marksAllMatching == false)
        // A prefix needs no key list: no limit.
        harness.press(.character("/"), .control("u"))
        harness.type("prefix:k")
        harness.press(.enter, .character("*"))
        #expect(harness.model.current.entries?.marksAllMatching == true)
    }

    @Test func tabCompletesEveryTagOfTheStoreFromAnyView() throws {
        let folder = TemporaryFolder()
        let store = try CacheStore(path: folder.url.appendingPathComponent("cache.sqlite").path)
        let tiles = try store.cache("tiles", key: String.self, value: Int.self)
        for index in 0..<2000 { try tiles.set(index, for: "t\(index)", tags: ["zoom:\(index / 250)"]) }
        var harness = ConsoleHarness(source: try StoreDataSource(store: store))
        func completions() -> [String] {
            if case .command(_, let completions) = harness.model.overlay { return completions }
            return []
        }
        harness.press(.character(":"))
        harness.type("invalidate tag=z")
        harness.press(.tab)
        #expect(completions() == (0..<8).map { "zoom:\($0)" }, "from the Overview")
        harness.press(.escape, .character(":"))
        harness.type("ns tiles")
        harness.press(.enter, .character(":"))
        harness.type("invalidate tag=z")
        harness.press(.tab)
        #expect(completions().count == 8, "in the entries, beyond the rows read")
    }

    @Test func unknownHitRatesSortLastInBothDirections() {
        var harness = ConsoleHarness(columns: 120, rows: 30)
        func order() -> [String] {
            let view = harness.model.views[0].view as? OverviewView
            return view?.ordered(harness.model.overview?.namespaces ?? []).map(\.name) ?? []
        }
        harness.press(.character("o"), .character("h"))
        #expect(Array(order().prefix(2)) == ["products", "sessions"])
        harness.press(.character("S"))
        #expect(Array(order().prefix(2)) == ["sessions", "products"], "unknown (–) is not 0 %")
    }

    @Test func theMessageLogKeepsEveryResultWholeAndWrapped() {
        let source = FakeDataSource()
        var harness = ConsoleHarness(source: source)
        let long = (1...30).map { "word\($0)" }.joined(separator: " ") + " the end"
        source.failNextRead(long)
        harness.press(.character("2"))
        let wrapped = harness.screen().split(separator: "\n").suffix(3)
        #expect(wrapped.first?.contains("word1 ") == true && wrapped.last?.contains("the end") == true, "\(wrapped)")
        source.failNextRead(String(repeating: long + " ", count: 3))
        harness.press(.character("1"), .character("2"))
        let cut = harness.screen().split(separator: "\n").suffix(4)
        #expect(cut.first?.contains("word") == false, "at most three lines")
        #expect(cut.last?.contains("… (M shows it all)") == true, "\(cut)")
        harness.wait(60_000)
        harness.press(.character("M"))
        let screen = harness.screen()
        #expect(screen.contains("messages") && screen.contains("word1 ") && screen.contains("the end"), "\(screen)")
        harness.press(.escape)
        #expect(!harness.screen().contains("the end"))
    }

    @Test func keysOnTheProcessPanelNeverActOnTheHiddenNamespaceList() {
        var harness = ConsoleHarness()
        harness.press(.tab)
        let hints = harness.screen().split(separator: "\n").last.map(String.init) ?? ""
        #expect(!hints.contains("clear") && !hints.contains("open") && hints.contains("Tab namespaces"))
        harness.press(.enter)
        #expect(harness.model.views.count == 1, "Enter opened a namespace from the process list")
        harness.press(.character("D"))
        #expect(harness.model.overlay == nil && harness.model.busy == nil, "D measured a clear")
    }

    @Test func highHitRatesNeverLookBad() {
        var harness = ConsoleHarness(columns: 120, rows: 30)
        let buffer = harness.controller.render()
        let hitsRow = (0..<buffer.size.rows).first { row in
            buffer.cells(inRow: row).map(\.text).joined().contains("Hits")
        }
        let roles = hitsRow.map { buffer.cells(inRow: $0).map(\.style.role) } ?? []
        #expect(!roles.isEmpty)
        #expect(!roles.contains(.bad) && !roles.contains(.graphHigh) && !roles.contains(.graphMidHigh))
        harness.press(.character("3"))
        let graph = harness.controller.render()
        // The hit rate graph's highest drawn row (its data reach 88.5 %) is drawn as good.
        let title = (0..<graph.size.rows).first { row in
            graph.cells(inRow: row).map(\.text).joined().contains("Hit rate")
        }
        func braille(_ row: Int) -> [StyleRole] {
            graph.cells(inRow: row).filter {
                $0.text.unicodeScalars.first.map { (0x2801...0x28FF).contains($0.value) } ?? false
            }.map(\.style.role)
        }
        let topRoles = title.flatMap { title in ((title + 1)..<graph.size.rows).lazy.map(braille).first { !$0.isEmpty } } ?? []
        #expect(!topRoles.isEmpty && topRoles.allSatisfy { $0 == .good })
    }

    @Test(arguments: ThemeLibrary.builtInNames)
    func goodLooksDifferentFromBadInEveryTheme(name: String) throws {
        let theme = try ThemeLibrary(folders: []).theme(named: name)
        #expect(theme[.good] != theme[.bad])
    }

    /// Good, warning and bad differ in colour at 8 and 16 colours (where a green and an amber
    /// once both became yellow) and in attributes too, for terminals without colour.
    @Test(arguments: ThemeLibrary.builtInNames)
    func statusRolesStayDistinctWithEightAndSixteenColours(name: String) throws {
        let theme = try ThemeLibrary(folders: []).theme(named: name)
        let roles: [StyleRole] = [.good, .warn, .bad]
        let attributes = roles.map { theme[$0].attributes }
        #expect(Set(attributes).count == roles.count, "\(name): good, warn and bad need a non-colour signal each")
        guard name != "monochrome" else { return }
        for depth in [ColorDepth.ansi8, .ansi16] {
            let colors = roles.map { depth.foregroundColor(for: theme[$0].foreground, onDarkBackground: theme.isDark) }
            #expect(Set(colors).count == roles.count, "\(name) at \(depth): \(colors)")
        }
    }

    @Test(arguments: ThemeLibrary.builtInNames)
    func bordersAndMutedTextStayVisibleWithEightColours(name: String) throws {
        let theme = try ThemeLibrary(folders: []).theme(named: name)
        let background: TerminalColor = .indexed(theme.isDark ? 0 : 7)
        for role in [StyleRole.border, .muted, .keyHint] {
            let color = ColorDepth.ansi8.foregroundColor(for: theme[role].foreground, onDarkBackground: theme.isDark)
            #expect(color != background, "\(role) vanishes into the background")
        }
    }

    @Test func punctuationHasAnASCIIFallback() {
        #expect(TerminalText.asciiFallback("–") == "-")
        #expect(TerminalText.asciiFallback("…") == ".")
        #expect(TerminalText.asciiFallback("›") == ">")
        #expect(TerminalText.asciiFallback("漢") == nil)
    }

    @Test func narrowColumnsEndWithAnEllipsisAndNoKeyActsWhileTooSmall() {
        var harness = ConsoleHarness(columns: 60, rows: 16)
        harness.press(.enter)
        let screen = harness.screen()
        #expect(screen.contains("accessed│") && !screen.contains("accesse│"), "a column the edge cuts keeps its words")
        #expect(screen.contains("bell\\x07and\\t…"))
        harness.resize(columns: 50, rows: 12)
        #expect(harness.screen().contains("Terminal too small"))
        let views = harness.model.views.count
        harness.press(.escape, .enter, .character("D"), .character("?"))
        #expect(harness.model.views.count == views && harness.model.overlay == nil && harness.model.busy == nil)
        harness.press(.character("q"))
        #expect(harness.sideEffects.contains(.quit))
    }

    @Test func theHexKeyHintSaysWhatItWillShowAndBinaryValuesSayWhy() {
        var harness = ConsoleHarness()
        harness.press(.enter, .enter)
        #expect(harness.screen().contains("x hex"))
        harness.press(.character("x"))
        #expect(harness.screen().contains("x text") && !harness.screen().contains("x hex"))
        var binary = ConsoleHarness()
        binary.source.state.withLock { $0.binaryValues = true }
        binary.press(.enter, .enter)
        #expect(!binary.screen().contains("x hex"))
        binary.press(.character("x"))
        #expect(binary.screen().contains("shows as a hex dump only"))
    }

    @Test func anUnknownThemeIsOneReadableLine() {
        var harness = ConsoleHarness()
        harness.press(.character(":"))
        harness.type("theme nosuch")
        harness.press(.enter)
        let text = harness.model.status?.text ?? ""
        #expect(text.hasPrefix("theme 'nosuch': no such theme (available: "))
        #expect(!text.contains("[") && !text.contains("/"))
    }

    @Test func anEntryNeverReadWasAccessedNever() {
        var harness = ConsoleHarness()
        harness.press(.down, .enter)
        #expect(harness.screen().contains("product-0000"))
        harness.press(.enter)
        #expect(harness.screen().contains("Accessed    never"))
    }

    @Test func theDetailCountsMemoryHitsAndSaysHowFreshTheyAre() throws {
        let folder = TemporaryFolder()
        let store = try CacheStore(path: folder.url.appendingPathComponent("cache.sqlite").path)
        let colors = try store.cache("colors", key: String.self, value: Int.self, policy: .hybrid)
        try colors.set(1, for: "red")
        for _ in 0..<2 { _ = try colors.get("red") }
        try store.flush()
        var harness = ConsoleHarness(source: try StoreDataSource(store: store))
        harness.press(.character(":"))
        harness.type("ns colors")
        harness.press(.enter, .enter)
        #expect(harness.screen().contains("Hits        2 (≤ ~1 s behind)"), "\(harness.screen())")
    }

    @Test func ratesAreZeroOnceNoAppIsLive() {
        var harness = ConsoleHarness()
        #expect(harness.screen().contains("2,013/s ops"))
        harness.source.state.withLock { $0.appsStopped = true }
        harness.source.change { _ in }
        harness.wait(1000)
        #expect(harness.screen().contains("○ 0 live apps"), "a hollow bullet: nothing is live")
        #expect(harness.screen().contains(" 0/s ops"))
    }

    @Test func valuesThatChangeAllTheTimeAreNotHighlightedForGood() {
        var harness = ConsoleHarness()
        for second in 0..<8 {
            harness.source.change { $0["sessions"]?.removeLast() }
            harness.wait(1000)
            if second == 0 { #expect(!harness.texts(styled: .highlightChanged).isEmpty) }
        }
        #expect(harness.texts(styled: .highlightChanged).isEmpty)
        harness.wait(11_000)
        harness.source.change { $0["sessions"]?.removeLast() }
        harness.wait(1000)
        #expect(!harness.texts(styled: .highlightChanged).isEmpty, "a change after a quiet spell lights up again")
    }

    @Test func theTimelineBarFollowsTheBytesBesideIt() {
        var harness = ConsoleHarness()
        harness.source.state.withLock {
            $0.timelineBuckets = [(.expired, 100, 1_000), (.withinDay, 10, 100_000)]
        }
        harness.press(.character("2"))
        let buffer = harness.controller.render()
        func bar(_ label: String) -> Int {
            let row = (0..<buffer.size.rows).first { buffer.cells(inRow: $0).map(\.text).joined().contains(label) }
            return row.map { buffer.cells(inRow: $0).filter { $0.style.role == .bar && $0.text == "█" }.count } ?? -1
        }
        #expect(bar("1 h–1 day") > 20 && bar("expired") < 2)
    }
}
