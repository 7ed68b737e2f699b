/// The help, generated from the live key map: every action with its keys, then the
/// commands.
enum HelpScreen {
    /// A line of the help: a heading, or keys and what they do.
    struct Line: Hashable {
        var keys: String
        var text: String
        var isHeading: Bool
    }

    /// The lines for `keyMap`.
    static func lines(_ keyMap: KeyMap, isReadOnly: Bool) -> [Line] {
        var lines = [Line(keys: "", text: "Keys (rebind them in ~/.config/cachedeck/keys.toml)", isHeading: true)]
        for entry in keyMap.helpEntries {
            let disabled = isReadOnly && ConsoleController.destructive.contains(entry.action)
            lines.append(
                Line(
                    keys: entry.keyLabels, text: entry.summary + (disabled ? " (read-only: disabled)" : ""),
                    isHeading: false))
        }
        lines.append(Line(keys: "", text: "", isHeading: false))
        lines.append(Line(keys: "", text: "Commands (: opens the command line, Tab completes)", isHeading: true))
        for command in Commands.all {
            lines.append(Line(keys: ":" + command.usage, text: command.summary, isHeading: false))
        }
        return lines
    }

    /// Terminals at least this wide show the commands beside the keys.
    private static let twoColumnWidth = 110

    static func draw(
        _ view: HelpView, keyMap: KeyMap, isReadOnly: Bool, in area: Rect, into buffer: inout ScreenBuffer
    ) {
        let all = lines(keyMap, isReadOnly: isReadOnly)
        let commandsStart = all.lastIndex(where: \.isHeading) ?? all.count
        let keys = all[..<commandsStart]
        let commands = all[commandsStart...]
        if area.size.columns >= twoColumnWidth {
            let half = area.size.columns / 2
            let left = Rect(column: area.minColumn, row: area.minRow, columns: half, rows: area.size.rows)
            let right = Rect(
                column: area.minColumn + half, row: area.minRow, columns: area.size.columns - half, rows: area.size.rows
            )
            drawSection(keys.dropFirst(view.scroll), in: left, into: &buffer)
            drawSection(commands.dropFirst(view.scroll), in: right, into: &buffer)
        } else {
            drawSection(
                all.dropFirst(view.scroll), keyWidth: width(of: keys), in: area, into: &buffer,
                commandWidth: min(area.size.columns / 2, width(of: commands)),
                commandsStart: commandsStart - view.scroll)
        }
    }

    private static func width(of lines: ArraySlice<Line>) -> Int {
        (lines.map { TerminalText.displayWidth(of: $0.keys) }.max() ?? 0) + 2
    }

    private static func drawSection(_ lines: ArraySlice<Line>, in area: Rect, into buffer: inout ScreenBuffer) {
        let keyWidth = min(area.size.columns / 2, width(of: lines))
        drawSection(lines, keyWidth: keyWidth, in: area, into: &buffer, commandWidth: keyWidth, commandsStart: 0)
    }

    /// Draws `lines` from the top of `area`: keys padded to `keyWidth` (`commandWidth` from
    /// the `commandsStart`th line on), then what they do.
    private static func drawSection(
        _ lines: ArraySlice<Line>, keyWidth: Int, in area: Rect, into buffer: inout ScreenBuffer, commandWidth: Int,
        commandsStart: Int
    ) {
        for (offset, line) in lines.prefix(area.size.rows).enumerated() {
            let point = Point(column: area.minColumn + 1, row: area.minRow + offset)
            if line.isHeading {
                buffer.put(line.text, at: point, style: CellStyle(.title), maxWidth: area.maxColumn - point.column)
                continue
            }
            let end = buffer.put(
                TerminalText.pad(line.keys, toWidth: offset < commandsStart ? keyWidth : commandWidth),
                at: Point(column: point.column + 1, row: point.row), style: CellStyle(.key))
            buffer.put(
                line.text, at: Point(column: end, row: point.row), style: CellStyle(.keyHint),
                maxWidth: area.maxColumn - end, truncation: .ellipsis("…"))
        }
    }
}
