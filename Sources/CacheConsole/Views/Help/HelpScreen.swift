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

    static func draw(
        _ view: HelpView, keyMap: KeyMap, isReadOnly: Bool, in area: Rect, into buffer: inout ScreenBuffer
    ) {
        let all = lines(keyMap, isReadOnly: isReadOnly)
        let keyWidth = min(44, (all.map { TerminalText.displayWidth(of: $0.keys) }.max() ?? 0) + 2)
        for (offset, line) in all.dropFirst(view.scroll).prefix(area.size.rows).enumerated() {
            let point = Point(column: area.minColumn + 1, row: area.minRow + offset)
            if line.isHeading {
                buffer.put(line.text, at: point, style: CellStyle(.title))
                continue
            }
            let end = buffer.put(
                TerminalText.pad(line.keys, toWidth: keyWidth), at: Point(column: point.column + 1, row: point.row),
                style: CellStyle(.key))
            buffer.put(
                line.text, at: Point(column: end, row: point.row), style: CellStyle(.keyHint),
                maxWidth: area.maxColumn - end)
        }
    }
}
