import Foundation
import Testing

@testable import CacheConsole
import TerminalUI

/// The Detail view's search in the value, and the copy and pager keys (the effects they ask
/// the runtime for; ``HandoffRunnerTests`` carries them out).
@Suite struct DetailValueTests {
    /// The styles of the cells of screen row `row` that show `text` (its first occurrence).
    private func styles(of text: String, onRowHolding marker: String, in harness: ConsoleHarness<FakeDataSource>)
        throws -> [StyleRole]
    {
        let buffer = harness.controller.render(options: RenderOptions(glyphs: .unicode))
        let rows = buffer.textSnapshot().split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(rows.firstIndex { $0.contains(marker) })
        let line = String(rows[row])
        let range = try #require(line.range(of: text))
        let column = line.distance(from: line.startIndex, to: range.lowerBound)
        return (column..<column + text.count).compactMap { buffer[Point(column: $0, row: row)]?.style.role }
    }

    @Test func slashSearchesTheValueHighlightsAndCountsTheMatches() throws {
        var harness = ConsoleHarness.detail()
        harness.press(.character("/"))
        harness.type("ur")
        let search = try #require(harness.model.current.detail?.search)
        // "currency" and "EUR" on the price line, "featured" on the tags line; lowercase
        // text matches either case.
        #expect(search.matches.map(\.line) == [5, 5, 6])
        #expect(search.current == 0)
        let screen = harness.screen()
        #expect(screen.contains("lines 1–8 of 8 · match 1 of 3 for \"ur\""))
        #expect(screen.contains("Search the value as you type"))
        #expect(try styles(of: "ur", onRowHolding: "currency", in: harness) == [.selection, .selection])
        #expect(try styles(of: "UR", onRowHolding: "currency", in: harness) == [.marked, .marked])
        #expect(try styles(of: "ur", onRowHolding: "\"tags\"", in: harness) == [.marked, .marked])
        harness.press(.enter)
        #expect(harness.model.overlay == nil)
        harness.press(.character("n"))
        #expect(harness.model.current.detail?.search?.current == 1)
        #expect(try styles(of: "UR", onRowHolding: "currency", in: harness) == [.selection, .selection])
        harness.press(.character("n"), .character("n"))
        #expect(harness.model.current.detail?.search?.current == 0, "n wraps around to the first match")
        harness.press(.character("N"))
        #expect(harness.model.current.detail?.search?.current == 2, "N wraps around to the last")
        #expect(harness.screen().contains("match 3 of 3"))
    }

    /// The "name" line wraps after "has " at 80 columns: "has to" is cut in two by the wrap.
    @Test func aMatchTheWrapCutsInTwoIsFoundAndMarkedOnBothRows() throws {
        var harness = ConsoleHarness.detail()
        let lines = try #require(harness.model.current.detail?.wrapped?.lines)
        let first = try #require(lines.firstIndex { $0.contains("\"name\"") })
        #expect(lines[first].hasSuffix(" has ") && lines[first + 1].hasPrefix("    to wrap"), "\(lines)")
        harness.press(.character("/"))
        harness.type("has to")
        let search = try #require(harness.model.current.detail?.search)
        #expect(search.matches.count == 1)
        let match = try #require(search.matches.first)
        #expect(match.line == first && match.length == 4 && lines[first].count == match.start + 4)
        #expect(match.continuation == [ValueSearch.Match(line: first + 1, start: 4, length: 2)])
        #expect(try styles(of: "has ", onRowHolding: "\"name\"", in: harness) == Array(repeating: .selection, count: 4))
        #expect(try styles(of: "to wrap", onRowHolding: "to wrap", in: harness).prefix(2) == [.selection, .selection])
        #expect(try styles(of: "to wrap", onRowHolding: "to wrap", in: harness)[2] != .selection)
        // The indent the wrap adds is not part of the value: "has    to" is not found.
        harness.press(.control("u"))
        harness.type("has    to")
        #expect(harness.model.current.detail?.search?.matches.isEmpty == true)
    }

    @Test func aCapitalLetterMatchesCaseAndNoMatchSaysSo() throws {
        var harness = ConsoleHarness.detail()
        harness.press(.character("/"))
        harness.type("UR")
        #expect(harness.model.current.detail?.search?.matches.map(\.start) == [44])
        harness.press(.control("u"))
        harness.type("zebra")
        harness.press(.enter)
        #expect(harness.screen().contains("no match for \"zebra\""))
        harness.press(.character("n"))
        #expect(harness.model.status?.text == "No match for \"zebra\".")
    }

    @Test func aCountOverAValueCutForDisplaySaysSo() {
        var harness = ConsoleHarness.detail()
        harness.press(.character("x"), .character("/"))
        harness.type("7b")
        #expect(harness.screen().contains("match 1 of 1 for \"7b\" in the part shown"))
    }

    @Test func aMatchOutOfViewIsScrolledTo() throws {
        var harness = ConsoleHarness.detail(rows: 16)
        let height = DetailScreen.valueHeight(for: Size(columns: 80, rows: 16))
        #expect(height < 7, "the tags line starts out of view")
        harness.press(.character("/"))
        harness.type("featured")
        let view = try #require(harness.model.current.detail)
        #expect(view.scroll <= 6 && 6 < view.scroll + height)
        #expect(harness.screen().contains("\"tags\": [\"featured\"]"))
    }

    @Test func escClearsTheSearchBeforeItGoesBack() {
        var harness = ConsoleHarness.detail()
        harness.press(.character("/"))
        harness.type("id")
        harness.press(.enter, .escape)
        #expect(harness.model.current.detail != nil && harness.model.current.detail?.search == nil)
        #expect(!harness.screen().contains("match"))
        harness.press(.escape)
        #expect(harness.model.current.detail == nil)
    }

    @Test func searchWithoutASearchSaysHow() {
        var harness = ConsoleHarness.detail()
        harness.press(.character("n"))
        #expect(harness.model.status?.text == "Search the value first (/).")
    }

    @Test func yCopiesTheKeyAndShiftYTheValueAsStored() throws {
        var harness = ConsoleHarness.detail()
        harness.press(.character("y"))
        #expect(
            harness.sideEffects.last
                == .handOff(ValueHandoff(.clipboard, subject: "the key product-0000", bytes: Data("product-0000".utf8))))
        harness.press(.character("Y"))
        let stored = try #require(try harness.source.wholeValue(namespace: "products", key: "product-0000"))
        #expect(
            harness.sideEffects.last
                == .handOff(ValueHandoff(.clipboard, subject: "the value of product-0000 (57 B)", bytes: stored)))
    }

    @Test func vOpensThePrettyValueAndAHexDumpWhenShowingOne() throws {
        var harness = ConsoleHarness.detail()
        harness.press(.character("v"))
        guard case .handOff(let pretty)? = harness.sideEffects.last else {
            Issue.record("v asked for no handoff")
            return
        }
        #expect(pretty.destination == .pager)
        #expect(String(decoding: pretty.bytes, as: UTF8.self).hasPrefix("{\n  \"id\": 1000,\n"))
        harness.press(.character("x"), .character("v"))
        guard case .handOff(let dump)? = harness.sideEffects.last else {
            Issue.record("v asked for no handoff")
            return
        }
        #expect(String(decoding: dump.bytes, as: UTF8.self).hasPrefix("00000000  7b 22 69 64 22 3a 31 30  30 30 2c 22"))
        #expect(dump.note == "as a hex dump")
    }

    @Test func anotherLibrarysCacheOffersNoPagerNorValueCopy() {
        let source = FakeDataSource()
        source.state.withLock { $0.foreignFormat = "python-diskcache" }
        var harness = ConsoleHarness(columns: 120, rows: 40, source: source)
        harness.press(.down, .enter, .enter)
        let hints = harness.screen().split(separator: "\n").last ?? ""
        #expect(hints.contains("y copy key") && !hints.contains("v pager"))
        harness.press(.character("v"))
        #expect(harness.model.status?.text == "This python-diskcache file's values are shown, never read whole (its key copies).")
        harness.press(.character("Y"))
        #expect(harness.sideEffects.isEmpty)
        harness.press(.character("y"))
        #expect(harness.sideEffects.count == 1)
    }

    @Test func aGoneEntryHandsNothingOver() {
        var harness = ConsoleHarness.detail()
        harness.source.change { $0["products"]?.removeFirst() }
        harness.press(.character("Y"))
        #expect(harness.model.status?.text == "product-0000 no longer exists; nothing was copied or shown.")
        #expect(harness.sideEffects.allSatisfy { if case .handOff = $0 { false } else { true } })
    }
}

/// The runtime's side of a handoff: OSC 52 or a private file, and `$PAGER` run by argv.
@Suite struct HandoffRunnerTests {
    /// A terminal that records what the console asked of it.
    final class RecordingTerminal: Terminal {
        var size = Size(columns: 80, rows: 24)
        var supportsUnicode = true
        var theme = Theme.fallback
        var mouseReporting = false
        let takesClipboard: Bool
        var clipboard: [UInt8]?
        var suspensions = 0

        init(takesClipboard: Bool) { self.takesClipboard = takesClipboard }

        func nextEvent(timeout: Duration?) -> InputEvent? { nil }
        func draw(_ buffer: ScreenBuffer) {}
        func redrawAll() {}
        func copyToClipboard(_ bytes: [UInt8]) -> Bool {
            if takesClipboard { clipboard = bytes }
            return takesClipboard
        }
        func suspend(_ body: () -> Void) {
            suspensions += 1
            body()
        }
    }

    private let value = Data("{\"id\":1}\u{1B}]0;owned\u{07}".utf8)

    @Test func aTerminalThatTakesOSC52GetsTheBytes() {
        let terminal = RecordingTerminal(takesClipboard: true)
        let outcome = HandoffRunner.carryOut(ValueHandoff(.clipboard, subject: "the key k", bytes: value), on: terminal)
        #expect(outcome.text == "Copied the key k to the clipboard." && !outcome.isError)
        #expect(terminal.clipboard == [UInt8](value))
    }

    @Test func otherwiseAPrivateFileSaysWhere() throws {
        let folder = TemporaryFolder()
        let terminal = RecordingTerminal(takesClipboard: false)
        let outcome = HandoffRunner.carryOut(
            ValueHandoff(.clipboard, subject: "the key k", bytes: value), on: terminal,
            environment: ["TMPDIR": folder.url.path])
        let path = try #require(outcome.text.split(separator: " ").first { $0.hasPrefix(folder.url.path) })
        #expect(outcome.text.hasSuffix("(this terminal takes no OSC 52 clipboard; in tmux: set -g set-clipboard on)."))
        #expect(try Data(contentsOf: URL(fileURLWithPath: String(path))) == value)
        let attributes = try FileManager.default.attributesOfItem(atPath: String(path))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func aValueTooLongForOSC52GoesToAFile() {
        let folder = TemporaryFolder()
        let terminal = RecordingTerminal(takesClipboard: true)
        let long = Data(repeating: 0x61, count: HandoffRunner.clipboardLimit + 1)
        let outcome = HandoffRunner.carryOut(
            ValueHandoff(.clipboard, subject: "the value", bytes: long), on: terminal,
            environment: ["TMPDIR": folder.url.path])
        #expect(terminal.clipboard == nil)
        #expect(outcome.text.contains("(too long for the terminal's clipboard)"))
    }

    /// `$PAGER` is split into words and run without a shell: `cp -t DIR` copies the private
    /// file the pager is given, which is gone once the pager returns.
    @Test func thePagerGetsAPrivateFileByArgvAndTheScreenComesBack() throws {
        let folder = TemporaryFolder()
        let copies = try folder.folder("copies")
        let temporary = try folder.folder("tmp")
        let terminal = RecordingTerminal(takesClipboard: false)
        let outcome = HandoffRunner.carryOut(
            ValueHandoff(.pager, subject: "the value of k", bytes: value), on: terminal,
            environment: ["TMPDIR": temporary.path, "PAGER": "cp  -t \(copies.path)"])
        #expect(outcome.text == "Showed the value of k in cp." && !outcome.isError)
        #expect(terminal.suspensions == 1)
        let copied = try FileManager.default.contentsOfDirectory(atPath: copies.path)
        #expect(copied.count == 1 && copied[0].hasPrefix("cachedeck-"))
        let copy = copies.appendingPathComponent(copied[0]).path
        #expect(FileManager.default.contents(atPath: copy) == value)
        #expect((try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? Int) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty, "the file is removed")
    }

    @Test func aPagerThatCannotRunSaysWhy() throws {
        let folder = TemporaryFolder()
        let outcome = HandoffRunner.carryOut(
            ValueHandoff(.pager, subject: "the value", bytes: value), on: RecordingTerminal(takesClipboard: false),
            environment: ["TMPDIR": folder.url.path, "PAGER": "no-such-pager-\(UUID().uuidString) -x"])
        #expect(outcome.isError && outcome.text.hasPrefix("Could not run the pager 'no-such-pager-"))
        #expect(outcome.text.hasSuffix("No such file or directory."))
        #expect(HandoffRunner.pagerCommand(environment: [:]) == ["less"])
        #expect(HandoffRunner.pagerCommand(environment: ["PAGER": " "]) == ["less"])
    }
}
