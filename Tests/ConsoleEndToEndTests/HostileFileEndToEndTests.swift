import CacheCore
import CacheDeckTestSupport
import Foundation
import Testing

extension ConsoleEndToEndTests {
    /// Pieces of hostile text: screen clears, colours, window titles (OSC 0 and 2), a
    /// hyperlink, C1 CSI, the alternate-screen switch, bidi, zero-width and combining
    /// characters, wide text and emoji, C0 controls and DEL.
    static let hostileAtoms = [
        "\u{1B}[2J", "\u{1B}[41;97m", "\u{1B}]0;pwned\u{07}", "\u{1B}]2;pwned\u{1B}\\",
        "\u{1B}]8;;https://example.com\u{1B}\\", "\u{9B}32m", "\u{1B}[?1049l", "\u{202E}", "\u{2066}", "\u{200B}",
        "\u{200D}", "\u{0301}", "東京", "👍🏽", "👨‍👩‍👧", "🇯🇵", "\t", "\n", "\u{0}", "\u{7F}", "\u{07}", "\u{08}", "\r",
    ]

    /// A cache file of hostile namespace names, versions, keys (one of 100 KB), tags and
    /// values (text, JSON, raw bytes), mixed deterministically from ``hostileAtoms``.
    static func writeHostileFile(to path: String) throws {
        let store = try CacheStore(path: path)
        let atoms = hostileAtoms
        func mix(_ index: Int) -> String {
            atoms[index % atoms.count] + "k\(index)" + atoms[(index * 7 + 3) % atoms.count]
        }
        let policy = NamespacePolicy().version("\u{1B}]2;pwned\u{07}v2")
        let texts = try store.cache("\u{1B}[31mred\u{1B}[0m", key: String.self, value: String.self, policy: policy)
        for index in 0..<30 { try texts.set(mix(index + 5) + mix(index), for: mix(index), tags: [mix(index % 3)]) }
        try texts.set("huge", for: String(repeating: "東\u{1B}[31m\u{202E}x", count: 10_000))
        let documents = try store.cache("東京\u{202E}ns", key: String.self, value: [String: [String]].self)
        for index in 0..<20 {
            try documents.set([mix(index): [mix(index + 1), "\u{9B}\u{2028}"]], for: mix(index * 3))
        }
        let bytes = try store.dataCache("raw\u{0}\u{7F}", key: String.self)
        for index in 0..<20 {
            try bytes.set(Data((0..<(index * 41)).map { UInt8(truncatingIfNeeded: $0 * 37 + index) }), for: mix(index))
        }
        try store.close()
    }

    /// A hostile file in a real terminal (tmux), screen by screen: the pane stays intact (see
    /// ``PaneCheck``), no colour from the content shows (the monochrome theme has none of its
    /// own), and the window title never changes.
    @Test func aHostileFileLeavesThePaneAndTitleIntactOnEveryScreen() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/hostile.sqlite"
        try Self.writeHostileFile(to: path)
        let idle = folder + "/idle"
        var size = (columns: 100, rows: 30)
        let tmux = try Tmux(columns: size.columns, rows: size.rows, environment: ["CACHEDECK_IDLE_FILE": idle])
        let title = try tmux.paneTitle()
        try tmux.type("\(Self.binary) --theme monochrome \(path); echo exit=$?", enter: true)

        /// Presses `keys`, waits for `text` and a settled frame, then for an intact pane.
        func visit(_ keys: [String], typing typed: String? = nil, until text: String) throws {
            if !keys.isEmpty { try tmux.keys(keys) }
            if let typed { try tmux.type(typed) }
            try tmux.waitFor(text)
            try Self.settle(idle)
            var problems: [String] = []
            let pane = try? tmux.waitUntil("an intact pane", timeout: .seconds(5), escapes: true) { pane in
                problems = PaneCheck.problems(in: pane, columns: size.columns, rows: size.rows)
                return problems.isEmpty
            }
            #expect(pane != nil, "after \(keys) \(text): \(problems.joined(separator: "\n"))")
        }

        try visit([], until: "Namespaces (3)")
        try visit(["Enter"], until: "╭─ Entries")
        try visit(["Enter"], until: "Value · ")
        try visit(["x"], until: "hex dump")
        try visit(["Escape", "G"], until: "╭─ Entries")
        try visit(["Enter"], until: "Value · ")
        try visit(["Escape", "d"], until: "Remove them? [y/N]")
        try visit(["y"], until: "removed 1 entr")
        // The skin tone arrives as a key of its own and joins the thumb in the field; curses
        // measures it 2 cells wide, so the terminal shows the thumb alone (see ScreenPainter).
        try visit(["/"], typing: "東京\u{202E}x👍🏽", until: "/東京\\u{202E}x👍")
        try visit(["Escape", "2"], until: "Expiry of")
        try visit(["3"], until: "Hit rate")
        try visit(["4"], until: "invalidate key")
        try visit(["?"], until: "Everywhere (rebind")
        try visit(["1", "j", "Enter"], until: "╭─ Entries")
        size = (columns: 80, rows: 24)
        try tmux.resize(columns: size.columns, rows: size.rows)
        try visit(["G", "Enter"], until: "Value · ")
        #expect(try tmux.paneTitle() == title, "the content never set the window title")

        try tmux.keys("q")
        try tmux.waitFor("exit=0")
    }
}
