import CacheCore
import CacheDeckTestSupport
import Foundation
import Testing

/// The real `cachedeck` binary in a real terminal (tmux): what a user types, what the user
/// sees. Skipped when tmux is not installed.
@Suite(.enabled(if: Tmux.executable != nil, "tmux is not installed"), .serialized)
struct ConsoleEndToEndTests {
    /// The `cachedeck` built beside this test bundle.
    static let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("cachedeck").path

    let demoFolder: DemoFolder
    var folder: String { demoFolder.path }

    init() throws {
        demoFolder = try DemoFolder()
    }

    private func demo() throws -> String { try demoFolder.demo() }

    @Test func browseFilterSortMarkInvalidateUndoSweepResizeAndQuit() throws {
        let path = try demo()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let idle = folder + "/idle"
        let tmux = try Tmux(columns: 120, rows: 40, environment: ["CACHEDECK_IDLE_FILE": idle])
        try tmux.type("\(Self.binary) \(path); echo exit=$?", enter: true)
        try tmux.waitFor("Namespaces (26)")
        try tmux.waitFor("○ 0 live apps")

        try tmux.type(":ns parts", enter: true)
        try tmux.waitFor("parts · 600 entries · row 1 of 600")
        try tmux.keys("j", "j", "Enter")
        try tmux.waitFor("Value · JSON")
        try tmux.waitFor("\"category\":")
        try tmux.keys("Escape")
        try tmux.waitFor("row 3 of 600")

        try tmux.type("/prefix:31")
        try tmux.keys("Enter")
        try tmux.waitFor("filter prefix:31 (100 matching)")
        try tmux.keys("s")
        try tmux.waitFor("size ▼")
        try tmux.keys("S")
        try tmux.waitFor("size ▲")
        try Self.settle(idle)
        try tmux.keys("Space", "Space")
        try tmux.waitFor("2 marked")
        try tmux.keys("d")
        try tmux.waitFor("Remove them? [y/N]")
        try tmux.keys("y")
        try tmux.waitFor("Invalidate 2 keys in parts: removed 2 entries")
        try tmux.waitFor("(98 matching)")
        try tmux.keys("u")
        try tmux.waitFor("Restored 2 entries")
        try tmux.waitFor("(100 matching)")

        // Nothing in parts has expired: the sweep says so instead of asking (issue #25).
        try tmux.keys("w")
        try tmux.waitFor("Sweep expired entries of parts: nothing to do")
        try tmux.keys("4")
        try tmux.waitFor("restore #1")

        let frame = try Self.idleFrame(idle)
        try tmux.resize(columns: 80, rows: 24)
        try Self.waitForIdle(idle, after: frame)
        let narrow = try tmux.waitUntil("an 80-column audit log") { pane in
            pane.split(separator: "\n").contains { $0.hasPrefix("╰") && $0.count == 80 }
        }
        #expect(narrow.contains("╭─ Audit log ─") && narrow.split(separator: "\n").count <= 24)
        try tmux.resize(columns: 50, rows: 12)
        try tmux.waitFor("Terminal too small")
        try tmux.resize(columns: 100, rows: 30)
        try tmux.waitFor("Audit log")

        try tmux.keys("q")
        let after = try tmux.waitFor("exit=0")
        #expect(!after.contains("CacheDeck "), "the alternate screen is gone")
        #expect(after.contains("e2e$ "), "the shell prompt is back")
    }

    @Test func hostileKeysAndInputAreShownSafelyAndReadOnlyDisablesActions() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/hostile.sqlite"
        let store = try CacheStore(path: path)
        let names = try store.cache("names", key: String.self, value: String.self)
        for key in ["東京タワー", "🍣 sushi", "\u{1B}[2J\u{1B}[31mRED", "\u{202E}gnp.exe", "bell\u{07}"] {
            try names.set("\u{1B}]0;title\u{07} value of \(key)", for: key)
        }
        try store.close()

        let tmux = try Tmux(columns: 100, rows: 30)
        try tmux.type("\(Self.binary) --read-only \(path); echo exit=$?", enter: true)
        try tmux.waitFor("READ-ONLY")
        try tmux.waitFor("Namespaces (1)")  // Enter before the Overview is read opens nothing
        try tmux.keys("Enter")
        let pane = try tmux.waitFor("東京タワー")
        for shown in ["🍣 sushi", "\\e[2J\\e[31mRED", "\\u{202E}gnp.exe", "bell\\x07"] {
            #expect(pane.contains(shown), "\(shown) is shown")
        }
        #expect(pane.contains("CacheDeck"), "no escape sequence cleared the screen")

        try tmux.keys("d")
        try tmux.waitFor("Read-only: actions are disabled")

        try tmux.type("/東京")
        try tmux.keys("Enter")
        try tmux.waitFor("filter 東京 (1 matching)")
        try tmux.type("/🍣")
        try tmux.keys("Enter")
        try tmux.waitFor("No entry matches '東京🍣'")
        try tmux.keys("Escape", "Escape", "O", "P")
        try tmux.waitFor("Everywhere (rebind keys")
        try tmux.keys("1", "Enter")
        try tmux.waitFor("names · 5 entries")
        try tmux.type("/")
        try tmux.keys("C-u")
        try tmux.type("\u{202E}x")
        try tmux.waitFor("/\\u{202E}x")
        try tmux.keys("Escape", "q")
        let after = try tmux.waitFor("exit=0")
        #expect(after.contains("e2e$ "))
    }

    /// The frame number the console last wrote to its idle file (0 before the first).
    static func idleFrame(_ path: String) throws -> Int {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
            ?? 0
    }

    /// Waits for the console to finish what it is doing (the page a new order reads, …): a
    /// whole idle cycle after now.
    static func settle(_ path: String) throws {
        try waitForIdle(path, after: try idleFrame(path))
    }

    /// Waits until the console reports idle with a frame drawn after `frame`.
    static func waitForIdle(_ path: String, after frame: Int) throws {
        guard try eventually(within: .seconds(15), { try idleFrame(path) > frame }) != nil else {
            throw SupportFailure("the console never became idle")
        }
    }

    @Test func anUnknownTerminalTypeIsAClearError() throws {
        let path = try demo()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tmux = try Tmux(columns: 100, rows: 20)
        try tmux.type("TERM=no-such-terminal \(Self.binary) \(path); echo exit=$?", enter: true)
        let pane = try tmux.waitFor("exit=1")
        #expect(pane.contains("cachedeck: unknown terminal type 'no-such-terminal'"))
    }
}
