import CacheDeckTestSupport
import Foundation
import Testing

/// End-to-end tests of CursesTerminal: the probe fixture in a real terminal (a tmux pane),
/// driven with `send-keys` and read with `capture-pane`. Every wait polls the pane with a
/// deadline; nothing relies on a fixed sleep.
@Suite(.serialized, .enabled(if: Tmux.executable != nil, "tmux is not installed"))
struct TerminalSessionTests {
    /// The modes a shell expects back: canonical input, echo, signals, CR→NL, output processing.
    private static let saneModes: Set<String> = ["icanon", "echo", "isig", "icrnl", "opost"]
    /// An SGR sequence setting one of the 8/16 ANSI colours.
    private static let colourCode = "\u{1B}\\[([0-9]+;)*(3[0-7]|4[0-7]|9[0-7]|10[0-7])(;[0-9]+)*m"

    @Test func keysArriveAsTypedKeys() throws {
        let probe = try Probe()
        let keys: [(String, String)] = [
            ("Up", "up"), ("Down", "down"), ("Left", "left"), ("Right", "right"), ("PPage", "pgup"), ("NPage", "pgdn"),
            ("Home", "home"), ("End", "end"), ("IC", "insert"), ("DC", "delete"), ("F1", "f1"), ("F12", "f12"),
            ("Enter", "enter"), ("Escape", "esc"), ("BSpace", "backspace"), ("Tab", "tab"), ("BTab", "shift-tab"),
            ("C-a", "ctrl-a"), ("C-l", "ctrl-l"), ("Space", "space"), ("x", "x"), ("G", "G"),
        ]
        for (index, (tmuxKey, notation)) in keys.enumerated() {
            try probe.tmux.keys(tmuxKey)
            try probe.waitForEvent("key \(notation)")
            try probe.tmux.waitFor("events: \(index + 1)")
        }
        try probe.tmux.type("界")
        try probe.waitForEvent("key 界")
        try probe.tmux.type("é")
        try probe.waitForEvent("key é")
        try probe.tmux.waitFor("events: \(keys.count + 2)")
    }

    @Test func escapeIsReportedAloneWithoutWaitingForMoreInput() throws {
        let probe = try Probe()
        try probe.tmux.keys("Escape")
        try probe.waitForEvent("key esc")
        try probe.tmux.keys("Escape", "j")
        try probe.waitForEvent("key j")
        try probe.tmux.waitFor("events: 3")
    }

    @Test func wideCharactersStayAlignedAndHostileTextIsEscaped() throws {
        let probe = try Probe()
        let screen = try probe.tmux.capture()
        #expect(screen.contains("│ wide: 界面テスト            |                            │"))
        #expect(screen.contains("│ hostile: \\e[31mred\\x07\\u{202E}abc                        │"))
        #expect(screen.contains("╭─ Probe ─"))
        #expect(screen.contains("▁▂▃▄▅▆▇█"))
        #expect(!screen.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func resizeIsReportedAndTheNextFrameFillsTheNewSize() throws {
        let probe = try Probe()
        try probe.tmux.resize(columns: 100, rows: 30)
        try probe.waitForEvent("resize 100x30")
        let screen = try probe.tmux.waitFor("probe ready 100x30")
        #expect(screen.components(separatedBy: "\n").dropFirst(29).first?.hasPrefix("q quit") == true)
        try probe.tmux.resize(columns: 60, rows: 12)
        try probe.waitForEvent("resize 60x12")
        try probe.tmux.waitFor("probe ready 60x12")
    }

    @Test func coloursFollowTheTerminalAndNoColor() throws {
        let full = try Probe()
        try full.tmux.waitFor("depth=xterm256")
        #expect(try full.tmux.capture(escapes: true).contains("\u{1B}[38;5;"))
        let basic = try Probe(environment: ["TERM": "screen"])
        try basic.tmux.waitFor("depth=ansi8")
        let basicEscapes = try basic.tmux.capture(escapes: true)
        #expect(
            !basicEscapes.contains("\u{1B}[38;5;")
                && basicEscapes.range(of: Self.colourCode, options: .regularExpression) != nil)
        let none = try Probe(environment: ["NO_COLOR": "1"])
        try none.tmux.waitFor("depth=monochrome")
        let noneEscapes = try none.tmux.capture(escapes: true)
        #expect(
            !noneEscapes.contains("\u{1B}[38;5;")
                && noneEscapes.range(of: Self.colourCode, options: .regularExpression) == nil)
        #expect(noneEscapes.contains("\u{1B}[7m"))  // the header in reverse video instead
    }

    @Test func mouseReportingIsOffUntilAskedFor() throws {
        let probe = try Probe()
        #expect(try probe.terminalState() == "1 0 0 1")
        try probe.tmux.keys("m")
        try probe.tmux.waitFor("mouse: on")
        #expect(try probe.tmux.format("#{mouse_any_flag}") == "1")
        try probe.tmux.keys("m")
        try probe.tmux.waitFor("mouse: off")
        #expect(try probe.tmux.format("#{mouse_any_flag}") == "0")
    }

    @Test func stderrIsKeptOffTheScreenAndLogged() throws {
        let probe = try Probe()
        try probe.tmux.keys("w")
        try probe.waitForEvent("key w")
        try probe.tmux.keys("Down")
        try probe.waitForEvent("key down")
        #expect(!(try probe.tmux.capture()).contains("probe stderr line"))
        try probe.tmux.keys("q")
        #expect(try probe.waitForExit().status == 0)
        #expect(try String(contentsOfFile: probe.logPath, encoding: .utf8).contains("probe stderr line"))
    }

    /// How the probe is made to end, and the exit status the shell then reports.
    enum Ending: String, CaseIterable, CustomTestStringConvertible {
        case quit, thrownError, sigterm, sigint, sighup, trap, abort, segfault

        var status: Int {
            switch self {
            case .quit: return 0
            case .thrownError: return 1
            case .sigterm: return 128 + Int(SIGTERM)
            case .sigint: return 128 + Int(SIGINT)
            case .sighup: return 128 + Int(SIGHUP)
            case .trap: return 128 + Int(SIGILL)
            case .abort: return 128 + Int(SIGABRT)
            case .segfault: return 128 + Int(SIGSEGV)
            }
        }

        var testDescription: String { rawValue }
    }

    @Test(arguments: Ending.allCases)
    func theTerminalIsRestoredHoweverTheProbeEnds(ending: Ending) throws {
        #if !arch(x86_64)
            try #require(ending != .trap, "a Swift trap is SIGILL on x86-64 only")
        #endif
        let probe = try Probe()
        try probe.tmux.keys("m")
        try probe.tmux.waitFor("mouse: on")
        #expect(try probe.terminalState() == "1 0 1 1")
        let pid = try probe.pid()
        switch ending {
        case .quit: try probe.tmux.keys("q")
        case .thrownError: try probe.tmux.keys("e")
        case .sigterm: kill(pid, SIGTERM)
        case .sigint: kill(pid, SIGINT)
        case .sighup: kill(pid, SIGHUP)
        case .trap: try probe.tmux.keys("c")
        case .abort: try probe.tmux.keys("a")
        case .segfault: try probe.tmux.keys("s")
        }
        let (status, modes) = try probe.waitForExit()
        #expect(status == ending.status)
        #expect(modes == Self.saneModes)
        #expect(try probe.terminalState() == "0 1 0 0")
        let screen = try probe.tmux.capture()
        #expect(!screen.contains("probe ready"), "the probe's screen is still showing")
        if ending == .thrownError {
            #expect(screen.contains("cachedeck-terminalprobe: probe error requested"))
        }
    }

    @Test func anUnknownTerminalTypeIsAOneLineError() throws {
        let probe = try Probe(environment: ["TERM": "no-such-terminal"], waitForReady: false)
        let (status, modes) = try probe.waitForExit()
        #expect(status == 1)
        #expect(modes == Self.saneModes)
        let lines = try probe.tmux.lines().filter { $0.hasPrefix("cachedeck-terminalprobe:") }
        #expect(
            lines == [
                "cachedeck-terminalprobe: unknown terminal type 'no-such-terminal' (no usable terminfo entry); "
                    + "try TERM=xterm-256color"
            ])
    }
}

@Suite struct TerminalWithoutTTYTests {
    @Test func redirectedInputAndOutputAreRefused() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Probe.path())
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try ProcessLauncher.run(process)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(exited.wait(timeout: .now() + 30) == .success)
        #expect(process.terminationStatus == 1)
        #expect(
            message == "cachedeck-terminalprobe: the console needs a terminal: standard input and output must not be "
                + "redirected\n")
    }
}
