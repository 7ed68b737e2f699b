import CacheCoreRedis
import TerminalUI
/// The help, generated from the live key map: every action with its keys, then the
/// commands.
enum HelpScreen {
    /// A line of the help: a heading, or keys and what they do.
    struct Line: Hashable {
        var keys: String
        var text: String
        var isHeading: Bool
    }

    /// The lines for `keyMap`: the bindings everywhere, in lists and of each view, then the
    /// commands, all from the records dispatch and the hints use.
    static func lines(_ keyMap: KeyMap, isReadOnly: Bool, isKeyspace: Bool = false, hasKeyspace: Bool = false) -> [Line]
    {
        var lines = [Line(keys: "", text: "Everywhere (rebind keys in ~/.config/cachedeck/keys.toml)", isHeading: true)]
        func add(_ bindings: [KeyHint]) {
            for binding in bindings {
                let keys = keyMap.keys(for: binding.action)
                let disabled = isReadOnly && binding.isDestructive
                lines.append(
                    Line(
                        keys: keys.isEmpty ? "(unbound)" : keys.map(\.label).joined(separator: ", "),
                        text: binding.help + (disabled ? " (read-only: disabled)" : ""), isHeading: false))
            }
        }
        add(
            ConsoleController.globalBindings.map(\.shown).filter {
                (!isKeyspace
                    || !(ConsoleController.keyspaceLacks($0.action, isReadOnly: isReadOnly) || $0.action == .showOverview))
                    && (hasKeyspace || isKeyspace || !ConsoleController.redisOnlyActions.contains($0.action))
            })
        lines.append(Line(keys: "", text: "In lists", isHeading: true))
        let motion = ListMove.allCases.map { KeyHint(action: $0.action, help: $0.help) }
        add(motion)
        for view in isKeyspace ? ConsoleViews.keyspace(deletesKeys: !isReadOnly) : ConsoleViews.all {
            let own = view.bindingSummaries.filter { binding in !motion.contains { $0.action == binding.action } }
            guard !own.isEmpty else { continue }
            lines.append(Line(keys: "", text: view.title, isHeading: true))
            add(own)
        }
        lines.append(Line(keys: "", text: "", isHeading: false))
        lines.append(Line(keys: "", text: commandsHeading, isHeading: true))
        for command in ConsoleCommands.available(isKeyspace: isKeyspace, hasKeyspace: hasKeyspace) {
            for usage in command.usage {
                lines.append(Line(keys: ":" + usage.text, text: usage.summary, isHeading: false))
            }
        }
        return lines
    }

    /// The heading the command list starts with.
    private static let commandsHeading = "Commands (:, Tab completes, ↑/↓ recall)"

    /// Terminals at least this wide show the commands beside the keys.
    private static let twoColumnWidth = 110

    /// How many rows the help takes at `columns` wide.
    static func height(
        _ keyMap: KeyMap, isReadOnly: Bool, isKeyspace: Bool = false, hasKeyspace: Bool = false, columns: Int
    ) -> Int {
        let all = lines(keyMap, isReadOnly: isReadOnly, isKeyspace: isKeyspace, hasKeyspace: hasKeyspace)
        guard columns >= twoColumnWidth, let split = all.firstIndex(where: { $0.text == commandsHeading }) else {
            return all.count
        }
        return max(split, all.count - split)
    }

    static func draw(
        _ view: HelpView, keyMap: KeyMap, isReadOnly: Bool, isKeyspace: Bool = false, hasKeyspace: Bool = false,
        in area: Rect,
        into buffer: inout ScreenBuffer
    ) {
        let all = lines(keyMap, isReadOnly: isReadOnly, isKeyspace: isKeyspace, hasKeyspace: hasKeyspace)
        let commandsStart = all.firstIndex { $0.text == commandsHeading } ?? all.count
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
