import CacheDeckTestSupport
import Foundation
import Testing

/// Terminals that can do less: 8 colours, an ASCII locale, no cursor addressing.
@Suite(.enabled(if: Tmux.executable != nil, "tmux is not installed"), .serialized)
struct TerminalCapabilityEndToEndTests {
    let demoFolder: DemoFolder
    var folder: String { demoFolder.path }

    init() throws {
        demoFolder = try DemoFolder()
    }

    private func demo() throws -> String { try demoFolder.demo() }

    @Test func withEightColoursNoBorderIsBlack() throws {
        let path = try demo()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tmux = try Tmux(columns: 100, rows: 30, environment: ["TERM": "xterm"])
        try tmux.type("\(ConsoleEndToEndTests.binary) \(path); echo exit=$?", enter: true)
        try tmux.waitFor("Namespaces (26)")
        try tmux.keys("3")
        let pane = try tmux.waitUntil("the statistics", escapes: true) { $0.contains("Evictions per second") }
        #expect(pane.contains("╰"))
        #expect(!pane.contains("\u{1B}[30m"), "something is drawn black on the terminal's dark background")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }

    @Test func anASCIILocaleDrawsASCIIPunctuationNotQuestionMarks() throws {
        let path = try demo()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tmux = try Tmux(columns: 100, rows: 30, environment: ["LC_ALL": "C"])
        try tmux.type("\(ConsoleEndToEndTests.binary) \(path); echo exit=$?", enter: true)
        let pane = try tmux.waitFor("Namespaces (26)")
        let rows = pane.split(separator: "\n").filter { $0.hasPrefix("|colors") || $0.contains(" Hits ") }
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { !$0.contains("?") }, "a dash shown as ?: \(rows)")
        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }

    @Test func aTerminalThatCannotMoveTheCursorIsRefused() throws {
        let path = try demo()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tmux = try Tmux(columns: 100, rows: 20)
        try tmux.type("TERM=dumb \(ConsoleEndToEndTests.binary) \(path); echo exit=$?", enter: true)
        let pane = try tmux.waitFor("exit=1")
        #expect(pane.contains("cachedeck: terminal type 'dumb' cannot draw a full screen"))
    }
}
