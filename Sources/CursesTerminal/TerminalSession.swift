import CNCurses
import TerminalUI
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The terminal, owned by curses for as long as the session runs: reads keys, mouse and
/// resize events, and draws ``TerminalUI/ScreenBuffer``s by difference.
///
/// This is the only type that touches curses. It is deliberately not `Sendable`: one thread
/// (or one isolation domain) owns it, and everything else hands it buffers to draw. Only one
/// session can run at a time in a process.
///
/// The terminal is restored on every way out: ``stop()`` (also called by `deinit` and by
/// ``run(options:_:)`` when its body returns or throws), and SIGHUP, SIGINT, SIGQUIT, SIGTERM
/// and crash signals (see `EmergencyRestore`).
package final class TerminalSession {
    /// The screen size in cells.
    package private(set) var size: Size
    /// What the terminal can show: `NO_COLOR` (set and not empty) or a terminal without
    /// colours means ``TerminalUI/ColorDepth/monochrome``.
    package let colorDepth: ColorDepth
    /// Whether the locale is UTF-8. When not, draw with ASCII glyphs
    /// (``TerminalUI/GlyphSet/ascii``, ``TerminalUI/BorderStyle/ascii``); any other
    /// non-ASCII cell is shown as `?`.
    package let supportsUnicode: Bool
    /// The theme cells are drawn with. On a monochrome terminal a theme that uses colour is
    /// replaced by ``TerminalUI/Theme/monochrome``.
    package var theme: Theme {
        didSet {
            painter.styles.theme = theme.adapted(to: colorDepth)
            painter.invalidate(clearing: false)
        }
    }
    /// Whether mouse events are reported (off by default: it takes over the terminal's own
    /// text selection).
    package var mouseReporting: Bool {
        didSet { if isActive { applyMouseReporting() } }
    }

    private var isActive = true
    /// Whether the terminal takes OSC 52 (`nil`: not asked yet).
    private var clipboardSupported: Bool?
    private let screen: OpaquePointer
    private let output: UnsafeMutablePointer<FILE>
    private let input: UnsafeMutablePointer<FILE>
    private let stderrRedirection: StderrRedirection
    private var painter: ScreenPainter

    /// Takes over the terminal on standard input and output.
    ///
    /// Sets the locale from the environment, starts curses with `newterm` (so an unknown
    /// `TERM` is an error rather than an exit), and sets Esc delay, keypad, cbreak, noecho,
    /// nonl and a hidden cursor. Stderr goes to `options.logPath` (or `/dev/null`) until
    /// ``stop()``.
    package init(options: TerminalOptions = TerminalOptions()) throws(TerminalError) {
        let claimed = activeSession.withLock { active in
            guard !active else { return false }
            active = true
            return true
        }
        guard claimed else { throw .alreadyActive }
        var started = false
        defer { if !started { activeSession.withLock { $0 = false } } }

        setlocale(LC_ALL, "")
        supportsUnicode = String(cString: nl_langinfo(nl_item(CODESET))) == "UTF-8"
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
        guard let terminalType = ProcessInfo.processInfo.environment["TERM"], !terminalType.isEmpty else {
            throw .terminalTypeUnset
        }
        var modes = termios()
        tcgetattr(STDOUT_FILENO, &modes)
        guard let output = fdopen(dup(STDOUT_FILENO), "w"), let input = fdopen(dup(STDIN_FILENO), "r") else {
            throw .notATerminal
        }
        EmergencyRestore.install()
        guard let screen = newterm(nil, output, input) else {
            EmergencyRestore.uninstall()
            fclose(output)
            fclose(input)
            throw .unknownTerminal(terminalType)
        }
        // A terminal that cannot move the cursor (`TERM=dumb`) would show a blank screen.
        guard let cursorAddress = tigetstr("cup"), Int(bitPattern: cursorAddress) != -1 else {
            endwin()
            delscreen(screen)
            EmergencyRestore.uninstall()
            fclose(output)
            fclose(input)
            throw .lineOnlyTerminal(terminalType)
        }
        let redirection: StderrRedirection
        do {
            redirection = try StderrRedirection.begin(to: options.logPath ?? "/dev/null")
        } catch {
            endwin()
            delscreen(screen)
            EmergencyRestore.uninstall()
            fclose(output)
            fclose(input)
            throw error
        }
        self.screen = screen
        self.output = output
        self.input = input
        stderrRedirection = redirection

        set_escdelay(Self.milliseconds(options.escapeDelay))
        cbreak()
        noecho()
        nonl()
        keypad(cn_stdscr(), true)
        intrflush(cn_stdscr(), false)
        leaveok(cn_stdscr(), true)
        curs_set(0)
        mouseinterval(0)

        let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        var defaultColors = false
        if !noColor && has_colors() {
            start_color()
            defaultColors = use_default_colors() == OK
            colorDepth = ColorDepth(colorCount: Int(cn_colors()))
        } else {
            colorDepth = .monochrome
        }
        theme = options.theme
        mouseReporting = options.mouseReporting
        size = Size(columns: Int(cn_cols()), rows: Int(cn_lines()))
        painter = ScreenPainter(
            styles: StyleResolver(
                depth: colorDepth, defaultColorsAvailable: defaultColors, theme: options.theme.adapted(to: colorDepth)),
            unicode: supportsUnicode)
        applyMouseReporting()
        EmergencyRestore.arm(
            descriptor: STDOUT_FILENO, modes: modes, reset: Self.resetSequence(),
            stderrCopy: redirection.savedDescriptor)
        started = true
    }

    deinit {
        stop()
    }

    /// Runs `body` with a new session and stops the session however `body` ends.
    package static func run<Result>(
        options: TerminalOptions = TerminalOptions(), _ body: (TerminalSession) throws -> Result
    ) throws -> Result {
        let session = try TerminalSession(options: options)
        defer { session.stop() }
        return try body(session)
    }

    /// Waits up to `timeout` (forever when `nil`) for input. Returns `nil` when the time is
    /// up, so an app can tick; keys curses reports that the console has no use for are
    /// skipped. A ``TerminalUI/InputEvent/resize(_:)`` means the next frame must have the
    /// new ``size`` (it is drawn whole).
    package func nextEvent(timeout: Duration? = nil) -> InputEvent? {
        guard isActive else { return nil }
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        while true {
            let remaining = deadline.map { max(Duration.zero, $0 - clock.now) }
            wtimeout(cn_stdscr(), remaining.map(Self.milliseconds) ?? -1)
            var value: wint_t = 0
            switch cn_get_wch(&value) {
            case OK:
                if let key = KeyDecoder.key(forCharacter: value) { return .key(key) }
            case KEY_CODE_YES:
                if let event = functionKeyEvent(Int32(bitPattern: value)) { return event }
            default:
                return nil  // timed out (or interrupted)
            }
            if let deadline, clock.now >= deadline { return nil }
        }
    }

    /// Draws `buffer`, writing only the cells that changed since the last frame.
    package func draw(_ buffer: ScreenBuffer) {
        guard isActive else { return }
        painter.paint(buffer, screen: size)
    }

    /// Clears the terminal and draws the next frame whole (for Ctrl-L, or after something
    /// else wrote to the terminal).
    package func redrawAll() {
        painter.invalidate(clearing: true)
    }

    /// Sets the clipboard with OSC 52 where the terminal takes it (see `Clipboard`; asked once).
    package func copyToClipboard(_ bytes: [UInt8]) -> Bool {
        if clipboardSupported == nil { clipboardSupported = Clipboard.isSupported() }
        guard isActive, clipboardSupported == true else { return false }
        let sequence = Clipboard.sequence(bytes)
        fwrite(sequence, 1, sequence.count, output)
        fflush(output)
        return true
    }

    /// Leaves curses (ordinary terminal modes, the main screen, the cursor shown, no mouse
    /// reporting) while `body` runs, then resumes it and draws the next frame whole.
    package func suspend(_ body: () -> Void) {
        guard isActive else { return body() }
        mousemask(0, nil)
        def_prog_mode()
        endwin()
        body()
        reset_prog_mode()
        curs_set(0)
        wrefresh(cn_stdscr())
        applyMouseReporting()
        painter.invalidate(clearing: true)
    }

    /// Gives the terminal back: mouse reporting off, cursor shown, curses ended, stderr
    /// restored, signal handlers put back. Safe to call more than once.
    package func stop() {
        guard isActive else { return }
        isActive = false
        EmergencyRestore.disarm()
        mousemask(0, nil)
        curs_set(1)
        endwin()
        delscreen(screen)
        fclose(output)
        fclose(input)
        stderrRedirection.end()
        EmergencyRestore.uninstall()
        activeSession.withLock { $0 = false }
    }

    private func functionKeyEvent(_ code: Int32) -> InputEvent? {
        switch code {
        case KEY_RESIZE:
            size = Size(columns: Int(cn_cols()), rows: Int(cn_lines()))
            painter.invalidate(clearing: true)
            return .resize(size)
        case KEY_MOUSE:
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            return KeyDecoder.mouse(event).map(InputEvent.mouse)
        default:
            return KeyDecoder.key(forCode: code).map(InputEvent.key)
        }
    }

    private func applyMouseReporting() {
        mousemask(mouseReporting ? cn_all_mouse_events() : 0, nil)
    }

    /// What the signal handler writes to give the terminal back: the terminal's own strings to
    /// leave the alternate screen, show the cursor, reset attributes and leave keypad mode,
    /// and, where the terminal reports mouse events, the xterm sequences that stop them.
    private static func resetSequence() -> [UInt8] {
        var bytes: [UInt8] = []
        for capability in ["sgr0", "cnorm", "rmkx", "rmcup"] {
            guard let value = cn_capability(capability) else { continue }
            bytes += withoutPadding(Array(String(cString: value).utf8))
        }
        if cn_capability("kmous") != nil {
            bytes += Array("\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1006l".utf8)
        }
        return bytes
    }

    /// `bytes` without terminfo delays (`$<5>`), which only curses' own output interprets.
    private static func withoutPadding(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "$"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "<"),
                let close = bytes[index...].firstIndex(of: UInt8(ascii: ">"))
            {
                index = close + 1
                continue
            }
            result.append(bytes[index])
            index += 1
        }
        return result
    }

    /// Curses' timeout for `duration`, rounded up so a wait never ends early, and clamped to
    /// `Int32`: not CacheCore's `Duration.milliseconds` (which rounds toward zero), and this
    /// target does not depend on CacheCore.
    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: total)
    }
}

/// Whether a session is running (curses drives one terminal per process).
private let activeSession = Mutex(false)
