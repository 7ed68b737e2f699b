// cachedeck-terminalprobe: a test fixture for CursesTerminal, run by CursesTerminalTests under
// tmux. It draws a fixed screen and shows the last input event, so a test can send keys and
// read the pane. Not part of the product.
//
//   cachedeck-terminalprobe [--log PATH]
//
// Keys: q quit · e throw an error · c trap (fatalError) · a abort · s segfault
//       w write to stderr · m toggle mouse reporting · t next theme
// Exit codes: 0 after q, 1 on an error (printed to stderr once the terminal is restored).

import TerminalUI
import CursesTerminal
import Foundation

struct ProbeError: Error, CustomStringConvertible {
    let description: String
}

/// The screen, drawn from the session's state and the last event.
func render(size: Size, session: TerminalSession, last: String, count: Int) -> ScreenBuffer {
    var buffer = ScreenBuffer(size: size)
    let glyphs: GlyphSet = session.supportsUnicode ? .unicode : .ascii
    let header =
        "probe ready \(size.columns)x\(size.rows) depth=\(session.colorDepth) theme=\(session.theme.name) "
        + "pid=\(getpid())"
    buffer.fill(Rect(column: 0, row: 0, columns: size.columns, rows: 1), style: CellStyle(.header))
    buffer.put(header, at: Point(column: 0, row: 0), style: CellStyle(.header))
    buffer.put("last: \(last)", at: Point(column: 0, row: 1))
    buffer.put("events: \(count)", at: Point(column: 0, row: 2), style: CellStyle(.muted))
    buffer.put("mouse: \(session.mouseReporting ? "on" : "off")", at: Point(column: 0, row: 3), style: CellStyle(.info))
    let panel = Rect(column: 0, row: 5, columns: min(60, size.columns), rows: 8)
    buffer.drawBox(panel, border: session.supportsUnicode ? .rounded : .ascii, title: "Probe")
    let inner = panel.insetBy(1)
    buffer.put("wide: 界面テスト", at: Point(column: inner.minColumn + 1, row: inner.minRow), maxWidth: 28)
    buffer.put("|", at: Point(column: inner.minColumn + 29, row: inner.minRow), style: CellStyle(.key))
    buffer.put(
        "hostile: \u{1B}[31mred\u{07}\u{202E}abc", at: Point(column: inner.minColumn + 1, row: inner.minRow + 1),
        style: CellStyle(.bad), maxWidth: 45, truncation: .ellipsis("…"))
    buffer.drawSparkline(
        (0..<24).map { Double($0 % 8) }, at: Point(column: inner.minColumn + 1, row: inner.minRow + 2), width: 24,
        glyphs: glyphs)
    buffer.drawBar(
        at: Point(column: inner.minColumn + 1, row: inner.minRow + 3), width: 24, fraction: 0.6, glyphs: glyphs)
    buffer.drawGraph(
        (0..<48).map { sin(Double($0) / 4) + 1 },
        in: Rect(column: inner.minColumn + 1, row: inner.minRow + 4, columns: 24, rows: 2), glyphs: glyphs)
    buffer.fill(Rect(column: 0, row: size.rows - 1, columns: size.columns, rows: 1), style: CellStyle(.statusBar))
    buffer.put(
        "q quit  e error  c trap  a abort  s segv  w stderr  m mouse  t theme",
        at: Point(column: 0, row: size.rows - 1),
        style: CellStyle(.statusBar))
    return buffer
}

func describe(_ event: InputEvent) -> String {
    switch event {
    case .key(let key): return "key \(key.notation)"
    case .resize(let size): return "resize \(size.columns)x\(size.rows)"
    case .mouse(let mouse): return "mouse \(mouse.kind) \(mouse.position.column),\(mouse.position.row)"
    }
}

func runProbe(logPath: String?) throws {
    try TerminalSession.run(options: TerminalOptions(logPath: logPath)) { session in
        var last = "none"
        var count = 0
        let themes = ThemeLibrary.builtInNames
        while true {
            session.draw(render(size: session.size, session: session, last: last, count: count))
            guard let event = session.nextEvent(timeout: .milliseconds(250)) else { continue }
            count += 1
            last = describe(event)
            guard case .key(.character(let character)) = event else { continue }
            switch character {
            case "q": return
            case "e": throw ProbeError(description: "probe error requested")
            case "c": fatalError("probe trap requested")
            case "a": abort()
            case "s": UnsafeMutablePointer<Int>(bitPattern: 8)?.pointee = 1
            case "w": FileHandle.standardError.write(Data("probe stderr line\n".utf8))
            case "m": session.mouseReporting.toggle()
            case "t":
                let next = ((themes.firstIndex(of: session.theme.name) ?? -1) + 1) % themes.count
                session.theme = ThemeLibrary(folders: []).themeOrFallback(named: themes[next]).theme
            default: break
            }
        }
    }
}

let arguments: [String] = CommandLine.arguments
var logPath: String?
if let flag = arguments.firstIndex(of: "--log"), flag + 1 < arguments.count {
    logPath = arguments[flag + 1]
}
do {
    try runProbe(logPath: logPath)
} catch {
    FileHandle.standardError.write(Data("cachedeck-terminalprobe: \(error)\n".utf8))
    exit(1)
}
