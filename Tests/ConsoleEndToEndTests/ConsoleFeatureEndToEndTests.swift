import CacheDeckTestSupport
import Foundation
import Testing

/// Mouse clicks and export in the real console.
@Suite(.enabled(if: Tmux.executable != nil, "tmux is not installed"), .serialized)
struct ConsoleFeatureEndToEndTests {
    let demoFolder: DemoFolder
    var folder: String { demoFolder.path }

    init() throws {
        demoFolder = try DemoFolder()
    }

    private func demo() throws -> String { try demoFolder.demo() }

    /// A left click at the 0-based cell `column`, `row` (xterm SGR mouse reporting).
    private func click(_ tmux: Tmux, column: Int, row: Int) throws {
        try tmux.type("\u{1B}[<0;\(column + 1);\(row + 1)M\u{1B}[<0;\(column + 1);\(row + 1)m")
    }

    /// Where `text` first shows on the pane: (column, row), counted in characters.
    private func position(of text: String, in pane: String) -> (column: Int, row: Int)? {
        for (row, line) in pane.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let range = line.range(of: text) {
                return (line.distance(from: line.startIndex, to: range.lowerBound), row)
            }
        }
        return nil
    }

    @Test func clicksSelectAndOpenRowsSortByAHeaderAndSwitchTabs() throws {
        let path = try demo()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let idle = folder + "/idle"
        let tmux = try Tmux(columns: 120, rows: 40, environment: ["CACHEDECK_IDLE_FILE": idle])
        try tmux.type("\(ConsoleEndToEndTests.binary) \(path); echo exit=$?", enter: true)
        try tmux.waitFor("Namespaces (26)")
        try tmux.keys("m")
        let pane = try tmux.waitFor("Mouse on")
        let parts = try #require(position(of: "│parts ", in: pane))
        try ConsoleEndToEndTests.settle(idle)
        try click(tmux, column: parts.column + 2, row: parts.row)
        try ConsoleEndToEndTests.settle(idle)
        try click(tmux, column: parts.column + 2, row: parts.row)
        try tmux.waitFor("parts · 600 entries")
        try tmux.keys("Escape")
        try tmux.waitFor("Namespaces (26)")
        // Two clicks at once are a double click: it opens the row.
        try click(tmux, column: parts.column + 2, row: parts.row + 1)
        try click(tmux, column: parts.column + 2, row: parts.row + 1)
        let entries = try tmux.waitFor("planner · 800 entries")
        let size = try #require(position(of: "size", in: entries))
        try click(tmux, column: size.column + 1, row: size.row)
        try tmux.waitFor("size ▼")
        let stats = try #require(position(of: "3 Stats", in: entries))
        try click(tmux, column: stats.column + 2, row: stats.row)
        try tmux.waitFor("statistics of planner")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }

    @Test func theConsoleExportsTheFilteredEntriesAsJSONLines() throws {
        let path = try demo()
        let output = folder + "/parts.jsonl"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tmux = try Tmux(columns: 120, rows: 40)
        try tmux.type("\(ConsoleEndToEndTests.binary) \(path); echo exit=$?", enter: true)
        try tmux.waitFor("Namespaces (26)")
        try tmux.type(":ns parts", enter: true)
        try tmux.waitFor("parts · 600 entries")
        try tmux.type("/prefix:31", enter: true)
        try tmux.waitFor("(100 matching)")
        try tmux.type(":export \(output)", enter: true)
        try tmux.waitFor("Exported 100 entries")
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 100)
        #expect(lines.allSatisfy { $0.hasPrefix(#"{"namespace":"parts","key":"31"#) && $0.contains(#""value":{"#) })
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }

    /// What the CLI exported comes back through `:import` after a clear: the dialog says how
    /// many are new, `y` writes them, and `u` on the import in the Audit view removes them again.
    @Test func importReadsBackAnExportAndTheAuditViewUndoesIt() throws {
        let path = try demo()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/parts.jsonl"
        let binary = ConsoleEndToEndTests.binary
        let tmux = try Tmux(columns: 120, rows: 40)
        try tmux.type(
            "\(binary) export \(path) parts -o \(output) && \(binary) clear \(path) parts --yes && "
                + "\(binary) \(path); echo exit=$?", enter: true)
        try tmux.waitFor("Namespaces (26)")
        try tmux.type(":import \(output)", enter: true)
        try tmux.waitFor("Import 600 entries into parts")
        try tmux.waitFor("600 new")
        try tmux.waitFor("0 replacing")
        try tmux.keys("y")
        try tmux.waitFor("wrote 600 entries")
        try tmux.type(":ns parts", enter: true)
        try tmux.waitFor("parts · 600 entries")
        try tmux.type(":audit", enter: true)
        try tmux.waitFor("can undo")
        try tmux.keys("u")
        try tmux.waitFor("Undid import #")
        try tmux.waitFor("removed 600 imported entries")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }

    @Test func ttlActionsChangeTheMarkedEntriesAndUndoFromTheConsole() throws {
        let path = try demo()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tmux = try Tmux(columns: 120, rows: 40)
        try tmux.type("\(ConsoleEndToEndTests.binary) \(path); echo exit=$?", enter: true)
        try tmux.waitFor("Namespaces (26)")
        try tmux.type(":ns parts", enter: true)
        try tmux.waitFor("parts · 600 entries")
        // The page's rows load after the header: marks before them would mark nothing.
        try tmux.waitFor("category:bricks")
        try tmux.keys("Space", "Space")
        try tmux.waitFor("2 marked")
        try tmux.type(":ttl never", enter: true)
        try tmux.waitFor("Set TTL never of 2 keys in parts")
        try tmux.keys("y")
        try tmux.waitFor("changed the expiry of 2 entries")
        try tmux.keys("u")
        try tmux.waitFor("Restored 2 entries")
        try tmux.type(":expire prefix=31", enter: true)
        try tmux.waitFor("Expire now of keys starting '31' in parts")
        try tmux.keys("y")
        try tmux.waitFor("changed the expiry of 100 entries")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }

    /// In an entry: `/` searches the value, `y` copies the key through OSC 52 (tmux with
    /// `set-clipboard on` keeps it as a paste buffer), `v` leaves curses for `less` on the value
    /// and comes back when it quits.
    @Test func theDetailViewSearchesCopiesAndPagesTheValue() throws {
        let path = try demo()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tmux = try Tmux(columns: 120, rows: 40, environment: ["PAGER": "less"])
        try tmux.setOption("set-clipboard", "on")
        try tmux.type("\(ConsoleEndToEndTests.binary) \(path); echo exit=$?", enter: true)
        try tmux.waitFor("Namespaces (26)")
        try tmux.type(":ns parts", enter: true)
        try tmux.waitFor("category:bricks")
        try tmux.keys("Enter")
        let detail = try tmux.waitFor("Value · JSON")
        let keyLine = try #require(detail.split(separator: "\n").first { $0.hasPrefix(" Key ") })
        let key = String(keyLine.dropFirst(" Key ".count)).trimmingCharacters(in: .whitespaces)
        try tmux.keys("y")
        try tmux.waitFor("Copied the key \(key) to the clipboard.")
        #expect(tmux.pasteBuffer() == key)
        try tmux.type("/\"", enter: true)
        try tmux.waitFor("match 1 of")
        try tmux.keys("v")
        let paged = try tmux.waitFor("(END)")
        #expect(!paged.contains("Value · JSON") && paged.contains("{"))
        try tmux.keys("q")
        try tmux.waitFor("Showed the value of \(key)")
        try tmux.waitFor("Value · JSON")
        try tmux.keys("Escape", "q")
        try tmux.waitFor("exit=0")
    }
}
