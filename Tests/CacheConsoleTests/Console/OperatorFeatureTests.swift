import CacheCore
import Foundation
import Testing

@testable import CacheConsole
import TerminalUI

/// What operators expect of the console (issue 12): filtering, text input, sorting, keys,
/// mouse, the audit detail and export.
@Suite struct OperatorFeatureTests {
    private func products(columns: Int = 80, rows: Int = 24) -> ConsoleHarness<FakeDataSource> {
        var harness = ConsoleHarness(columns: columns, rows: rows)
        harness.press(.down, .enter)
        return harness
    }

    private func click<Source>(_ harness: inout ConsoleHarness<Source>, column: Int, row: Int) {
        harness.handle(.input(.mouse(MouseEvent(kind: .press(.left), position: Point(column: column, row: row)))))
    }

    private func lastLine<Source>(_ harness: ConsoleHarness<Source>) -> String {
        harness.screen().split(separator: "\n").last.map(String.init) ?? ""
    }

    @Test func ttlAndExpireChangeTheSelectedOrMarkedEntriesWithAPreviewAndUndo() {
        var harness = products()
        harness.press(.character(":"))
        harness.type("ttl +1h")
        harness.press(.enter)
        let dialog = harness.screen()
        #expect(dialog.contains("Extend TTL by 1h of products/product-0000"))
        #expect(dialog.contains("Change their expiry? [y/N]") && !dialog.contains("Remove them?"))
        #expect(
            dialog.contains("the old expiry times are kept 7 days") && !dialog.contains("trash"),
            "the dialog words its own action")
        harness.press(.character("y"))
        #expect(harness.screen().contains("changed the expiry of 1 entry"))
        harness.press(.character(" "), .character(" "), .character(":"))
        harness.type("expire")
        harness.press(.enter)
        #expect(harness.screen().contains("Expire now of 2 keys in products"))
        harness.press(.character("y"))
        #expect(harness.screen().contains("changed the expiry of 2 entries"))
        harness.press(.character(":"))
        harness.type("ttl soon")
        harness.press(.enter)
        #expect(harness.texts(styled: .statusError).first?.hasPrefix("bad duration 'soon'") == true)
    }

    @Test func aFilterMatchingMoreThanALoadedPageSaysExactlyHowMany() {
        var harness = products()
        harness.press(.character("/"))
        harness.type("size>0")
        harness.press(.enter)
        #expect(harness.screen().contains("(240 matching)") && !harness.screen().contains("≥"))
        #expect(harness.model.current.entries.map { $0.window.knownCount < 240 } == true, "fewer rows are loaded")
    }

    @Test func theFilterAppliesAsItIsTypedAndEscClearsItBeforeLeaving() {
        var harness = products()
        harness.press(.character("/"))
        #expect(harness.screen().contains("prefix:P · tag:T"), "the syntax shows above the field")
        harness.type("tag:sale")
        #expect(harness.model.current.entries?.filter == "tag:sale", "no Enter needed")
        #expect(harness.screen().contains("(60 matching)"))
        harness.press(.escape)
        #expect(harness.model.current.entries?.filter == "", "Esc in the field goes back to the filter before")
        harness.press(.character("/"))
        harness.type("tag:sale")
        harness.press(.enter)
        harness.press(.escape)
        #expect(harness.model.views.count == 2 && harness.model.current.entries?.filter == "")
        harness.press(.escape)
        #expect(harness.model.views.count == 1)
    }

    @Test func filterAndCommandLinesHaveHistory() {
        var harness = products()
        for text in ["tag:sale", "hits>50"] {
            harness.press(.character("/"), .control("u"))
            harness.type(text)
            harness.press(.enter)
        }
        harness.press(.character("/"), .control("u"), .up)
        #expect(harness.model.current.entries?.filter == "hits>50")
        harness.press(.up)
        #expect(harness.model.current.entries?.filter == "tag:sale")
        harness.press(.down, .down, .escape)
        harness.press(.character(":"))
        harness.type("refresh 2")
        harness.press(.enter, .character(":"), .up)
        guard case .command(let line, _) = harness.model.overlay else {
            Issue.record("the command line is open")
            return
        }
        #expect(line.field.text == "refresh 2")
    }

    @Test func nextAndPreviousMatchJumpBetweenKeysHoldingTheFiltersText() {
        var harness = products()
        harness.press(.character("/"))
        harness.type("000")
        harness.press(.enter, .character("n"))
        #expect(harness.model.current.entries?.window.selection == 1)
        harness.press(.character("N"))
        #expect(harness.model.current.entries?.window.selection == 0)
    }

    @Test func commandsCompleteNamespacesThemesAndTags() {
        let context = ConsoleCommands.Context(namespaces: ["products", "sessions"], themes: ["light"], tags: ["sale"])
        #expect(ConsoleCommands.complete("ns pro", context: context).text == "ns products ")
        #expect(ConsoleCommands.complete("theme l", context: context).text == "theme light ")
        #expect(ConsoleCommands.complete("invalidate tag=s", context: context).text == "invalidate tag=sale ")
        #expect(ConsoleCommands.complete("expo", context: context).text == "export ")
        #expect(ConsoleCommands.complete("exp", context: context).candidates == ["expire", "export"])
        #expect(ConsoleCommands.named("statistics")?.name == "stats")
    }

    @Test func aSortMenuPicksAColumnInTheCLIsDirectionAndTheCursorGoesToTheTop() {
        var harness = products()
        harness.press(.down, .down, .character("o"))
        #expect(harness.screen().contains("Sort by: k key · s size"))
        harness.press(.character("s"))
        #expect(harness.model.current.isEntries(sortedBy: EntrySort(.size, descending: true)))
        #expect(harness.model.current.entries?.window.selection == 0)
        harness.press(.character("o"), .character("s"))
        #expect(harness.model.current.isEntries(sortedBy: EntrySort(.size)), "the same column again reverses")
        harness.press(.character("o"), .character("z"))
        #expect(harness.model.current.isEntries(sortedBy: EntrySort(.size)), "another key closes the menu")
    }

    @Test func plusAndMinusChangeTheRefreshRateAndHelpTogglesAndQuitClosesItFirst() {
        var harness = ConsoleHarness()
        harness.press(.character("-"))
        #expect(harness.model.live.interval == .seconds(2))
        harness.press(.character("+"), .character("+"))
        #expect(harness.model.live.interval == .milliseconds(500))
        harness.press(.character("?"))
        #expect(harness.model.current.isHelp)
        harness.press(.character("?"))
        #expect(!harness.model.current.isHelp)
        harness.press(.character("?"), .character("q"))
        #expect(!harness.model.current.isHelp && !harness.sideEffects.contains(.quit))
        harness.press(.character("q"))
        #expect(harness.sideEffects.contains(.quit))
    }

    @Test func theHintLineKeepsHelpAtEightyColumns() {
        var harness = products()
        #expect(lastLine(harness).contains("? help"))
        harness.press(.enter)
        #expect(lastLine(harness).contains("? help"))
    }

    @Test func clicksSelectRowsTabsAndHeadersAndASecondClickOpens() {
        var harness = ConsoleHarness(columns: 120, rows: 30)
        click(&harness, column: 5, row: 9)
        #expect(harness.model.current.overview?.selection == 1 && harness.model.views.count == 1)
        click(&harness, column: 5, row: 9)
        #expect(harness.model.current.entries?.namespace == "products")
        let header = harness.screen().split(separator: "\n")[4]
        let size = header.distance(
            from: header.startIndex, to: header.range(of: "size")?.lowerBound ?? header.startIndex)
        click(&harness, column: size, row: 4)
        #expect(harness.model.current.isEntries(sortedBy: EntrySort(.size, descending: true)), "a header click sorts")
        click(&harness, column: 5, row: 7)
        #expect(harness.model.current.entries?.window.selection == 2)
        let stats = (0..<120).first { harness.controller.tab(at: $0) == .showStatistics } ?? -1
        click(&harness, column: stats, row: 1)
        #expect(harness.model.current.view is StatisticsView)
        harness.handle(.input(.mouse(MouseEvent(kind: .scrollDown, position: Point(column: 5, row: 5)))))
        #expect((harness.model.current.view as? StatisticsView)?.selection == 3)
    }

    @Test func theAuditDetailShowsWhoAndWhatAndUndoesFromThere() {
        var harness = ConsoleHarness()
        harness.press(.down, .enter, .character("d"), .character("y"))
        harness.press(.character("4"), .enter)
        let screen = harness.screen()
        #expect(screen.contains("Action #1") && screen.contains("invalidate key products/product-0000"))
        #expect(screen.contains("can be undone: u restores"))
        #expect(screen.contains("Keys      products/product-0000"))
        harness.press(.character("u"))
        #expect(harness.screen().contains("Restored 1 entry of action #1."))
        #expect(harness.screen().contains("undone"))
    }

    @Test func exportWritesTheMarkedOrMatchingEntries() throws {
        let path = NSTemporaryDirectory() + "cachedeck-export-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var harness = products()
        harness.press(.character(" "), .character(" "), .character(":"))
        harness.type("export \(path)")
        harness.press(.enter)
        #expect(harness.model.status?.text == "Exported 2 entries to \(path).")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines[0].contains("product-0000"))
    }

    @Test func threeFromANamespaceGraphsThatNamespace() {
        var harness = products()
        harness.press(.character("3"))
        #expect(harness.screen().contains("statistics of products, last 5 min"))
    }

    @Test func graphsAverageWhenSqueezedAndClipAStartupSpike() {
        // 48 half-hour points into 12 columns: the one bucket with data still shows.
        let day = (0..<48).map { $0 == 47 ? 300.0 : .nan }
        #expect(StatisticsScreen.resampled(day, to: 12).last == 300)
        #expect(StatisticsScreen.resampled([1, 3, 5, 7], to: 2) == [2, 6])
        let spiky = [5000.0] + Array(repeating: 300, count: 30)
        let scale = StatisticsScreen.scaleTop(spiky)
        #expect(scale.clipped && scale.top == 450)
        #expect(StatisticsScreen.scaleTop([100, 200, 300, 400, 500]) == (500, false))
    }

    @Test func theTerminalCursorSitsInTheFieldBeingEdited() {
        var harness = products()
        #expect(harness.controller.render().cursor == nil)
        harness.press(.character("/"))
        harness.type("ab")
        #expect(harness.controller.render().cursor == Point(column: 3, row: 23))
    }

    @Test func theOverviewSortMenuPicksAColumn() {
        var harness = ConsoleHarness()
        harness.press(.down, .character("o"))
        #expect(harness.screen().contains("Sort by: n namespace · e entries · b bytes"))
        harness.press(.character("b"))
        #expect(harness.model.current.overview?.sort == .bytes && harness.model.current.overview?.descending == true)
        #expect(harness.model.current.overview?.selection == 0)
        harness.press(.character("o"), .character("b"))
        #expect(harness.model.current.overview?.descending == false)
    }
}
