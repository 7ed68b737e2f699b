import CacheCoreRedis
import TerminalUI
import Foundation

extension ConsoleController {
    /// The whole screen for the current state at ``size``: header, breadcrumbs, the view,
    /// the status line, and any overlay; or the "terminal too small" notice.
    package func render(options: RenderOptions = RenderOptions()) -> ScreenBuffer {
        var buffer = ScreenBuffer(size: size)
        guard ConsoleLayout.fits(size) else {
            TooSmallScreen.draw(size: size, into: &buffer)
            return buffer
        }
        let body = ConsoleLayout.body(size)
        drawHeader(into: &buffer, options: options)
        drawBreadcrumbs(into: &buffer, options: options)
        model.current.view.draw(in: body, into: &buffer, context: viewContext, options: options)
        drawStatus(into: &buffer, options: options)
        switch model.overlay {
        case .filter(let line):
            drawInput(prompt: "/", line.field, into: &buffer)
            let status = model.status.flatMap { $0.isError ? $0.text : nil }
            drawAboveInput(
                status
                    ?? (model.current.view is DetailView
                        ? "Search the value as you type (a capital letter matches case)"
                        : "Filter as you type: "
                            + (model.current.view is KeyspaceView ? KeyspaceView.filterSyntax : EntriesView.filterSyntax))
                    + " · ↑/↓ history · Enter keeps · Esc undoes",
                style: CellStyle(status == nil ? .dialog : .statusError), into: &buffer, options: options)
        case .command(let line, let completions):
            drawInput(prompt: ":", line.field, into: &buffer)
            if !completions.isEmpty {
                drawAboveInput(
                    completions.joined(separator: "  "), style: CellStyle(.dialog), into: &buffer, options: options)
            }
        case .confirm(let dialog): ConfirmScreen.draw(dialog, in: body, into: &buffer, options: options)
        case nil: break
        }
        return buffer
    }

    /// What the current view sees while it draws.
    private var viewContext: ViewContext {
        ViewContext(viewID: model.current.id, size: size, model: model, settings: settings)
    }

    /// A line over the input field: the filter syntax, an error, completions.
    private func drawAboveInput(
        _ text: String, style: CellStyle, into buffer: inout ScreenBuffer, options: RenderOptions
    ) {
        let row = Rect(column: 0, row: size.rows - 2, columns: size.columns, rows: 1)
        buffer.fill(row, style: style)
        buffer.put(
            " " + text, at: row.origin, style: style, maxWidth: size.columns, truncation: .ellipsis(options.ellipsis))
    }

    private func drawHeader(into buffer: inout ScreenBuffer, options: RenderOptions) {
        let style = CellStyle(.header)
        buffer.fill(Rect(column: 0, row: 0, columns: size.columns, rows: 1), style: style)
        var right: [(String, CellStyle)] = []
        if model.isReadOnly { right.append(("READ-ONLY", CellStyle(.headerAccent))) }
        if let paused = model.live.pausedAt {
            right.append(("paused \(TimeText.span(model.now - paused)) old", CellStyle(.headerAccent)))
        } else {
            right.append(("live \(TimeText.interval(model.live.interval))", style))
        }
        let rightText = right.map(\.0).joined(separator: "  ") + " "
        let rightStart = size.columns - TerminalText.displayWidth(of: rightText)
        var column = buffer.put(" CacheDeck ", at: Point(column: 0, row: 0), style: CellStyle(.headerAccent))
        let name =
            model.isKeyspace || model.server != nil
            ? model.location + (model.server.map { options.dot + KeyspaceText.server($0) } ?? "")
            : URL(fileURLWithPath: model.location).lastPathComponent
                + (model.overview?.file.owner.map { ", owned by \($0)" } ?? "")
        // The live apps go last but keep their room: a long server line is cut instead. Another
        // library's cache records no apps: nothing is said rather than "0 live apps".
        let apps = model.overview.flatMap { overview -> String? in
            guard overview.file.foreignFormat == nil else { return nil }
            let live = overview.processes.filter(\.isLive).count
            // A filled bullet only when something is live.
            return "  \(live > 0 ? options.liveGlyph : options.stoppedGlyph) \(live) live \(live == 1 ? "app" : "apps")"
        }
        column = buffer.put(
            " " + name, at: Point(column: column, row: 0), style: style,
            maxWidth: max(0, rightStart - column - 1 - TerminalText.displayWidth(of: apps ?? "")),
            truncation: .ellipsis(options.ellipsis))
        if let apps {
            column = buffer.put(
                apps, at: Point(column: column, row: 0), style: style, maxWidth: max(0, rightStart - column - 1))
        }
        var position = max(column + 1, rightStart)
        for (index, part) in right.enumerated() {
            position = buffer.put((index > 0 ? "  " : "") + part.0, at: Point(column: position, row: 0), style: part.1)
        }
    }

    private func drawBreadcrumbs(into buffer: inout ScreenBuffer, options: RenderOptions) {
        let row = 1
        buffer.fill(Rect(column: 0, row: row, columns: size.columns, rows: 1))
        let active = model.current.view.tab?.action
        let tabText = Self.tabs.map { "\(label($0.0)) \($0.1)" }.joined(separator: "  ")
        let showTabs = size.columns >= 100 && !model.isKeyspace
        let crumbWidth = size.columns - (showTabs ? TerminalText.displayWidth(of: tabText) + 3 : 1)
        let crumbs = breadcrumbs.joined(separator: options.crumbSeparator)
        buffer.put(
            " " + crumbs, at: Point(column: 0, row: row), style: CellStyle(.breadcrumb), maxWidth: crumbWidth,
            truncation: .ellipsis(options.ellipsis))
        guard showTabs else { return }
        var column = size.columns - TerminalText.displayWidth(of: tabText) - 1
        for (index, tab) in Self.tabs.enumerated() {
            let style = tab.0 == active ? CellStyle(.title) : CellStyle(.muted)
            column = buffer.put(
                (index > 0 ? "  " : "") + "\(label(tab.0)) \(tab.1)", at: Point(column: column, row: row), style: style)
        }
    }

    /// The tabs on the breadcrumb bar.
    private static let tabs: [(KeyAction, String)] = ConsoleViews.tabs.map { ($0.action, $0.label) }

    /// The tab drawn at `column` of the breadcrumb bar, if any.
    func tab(at column: Int) -> KeyAction? {
        let tabText = Self.tabs.map { "\(label($0.0)) \($0.1)" }.joined(separator: "  ")
        guard size.columns >= 100, !model.isKeyspace else { return nil }
        var start = size.columns - TerminalText.displayWidth(of: tabText) - 1
        for tab in Self.tabs {
            let width = TerminalText.displayWidth(of: "\(label(tab.0)) \(tab.1)")
            if column >= start && column < start + width { return tab.0 }
            start += width + 2
        }
        return nil
    }

    /// The path to the current view: file, namespace, entry, and the auxiliary view.
    var breadcrumbs: [String] {
        var crumbs = [
            model.hasKeyspace ? model.location : URL(fileURLWithPath: model.location).lastPathComponent
        ]
        for entry in model.views.dropFirst() {
            let context = ViewContext(viewID: entry.id, size: size, model: model, settings: settings)
            if let crumb = entry.view.breadcrumb(in: context) { crumbs.append(crumb) }
        }
        return crumbs
    }

    private func drawStatus(into buffer: inout ScreenBuffer, options: RenderOptions) {
        let row = size.rows - 1
        let style = CellStyle(.statusBar)
        buffer.fill(Rect(column: 0, row: row, columns: size.columns, rows: 1), style: style)
        let timing =
            "query \(TimeText.milliseconds(model.timings.queryMilliseconds)) · frame "
            + TimeText.milliseconds(model.timings.renderMilliseconds) + " "
        // A frozen order is said where the eye goes after a key, and stays while it lasts.
        let frozen = model.live.isFrozen ? " order frozen (\(label(.freezeOrder))) " : ""
        let timingWidth = TerminalText.displayWidth(of: timing) + TerminalText.displayWidth(of: frozen)
        let room = size.columns - timingWidth - 2
        var used = 0
        if let busy = model.busy {
            let spinner = ["|", "/", "-", "\\"][Int((model.now - busy.since) / 250 % 4)]
            used = buffer.put(
                " \(spinner) \(busy.title)\(options.ellipsis) "
                    + (busy.progress.map { "\(Formatting.count($0.done)) of \(Formatting.count($0.total)) · " } ?? "")
                    + TimeText.span(model.now - busy.since)
                    + (busy.stop.map { $0.isStopped ? "; stopping" : " (Esc stops)" } ?? "")
                    + (busy.quitsAfter ? "; quitting when it finishes" : ""),
                at: Point(column: 0, row: row), style: CellStyle(.statusBar, [.bold]), maxWidth: size.columns,
                truncation: .ellipsis(options.ellipsis))
        } else if let status = shownMessage {
            used = drawMessage(status, endingAt: row, into: &buffer, options: options)
        } else {
            used = drawHints(in: room, row: row, into: &buffer)
        }
        if used <= size.columns - timingWidth {
            let column = buffer.put(
                frozen, at: Point(column: size.columns - timingWidth, row: row), style: CellStyle(.headerAccent))
            buffer.put(timing, at: Point(column: column, row: row), style: CellStyle(.statusBar, [.dim]))
        }
    }

    /// Lines a message takes on the status line at most, wrapped upwards over the view.
    static let messageLines = 3

    /// The message the status line shows now: the last one, while it is fresh and no action
    /// runs.
    private var shownMessage: StatusMessage? {
        guard model.busy == nil, let status = model.status,
            model.now - status.since < ConsoleController.messageLifetime * (status.isError ? 3 : 1)
        else { return nil }
        return status
    }

    /// The rows the status line takes now: 1, or up to ``messageLines`` for a message that
    /// wraps over the bottom of the view.
    package var statusRows: Int {
        shownMessage.map { messageLines($0, ellipsis: "…").count } ?? 1
    }

    /// A message wrapped to the screen, at most ``messageLines`` of it (a longer one ends with
    /// where to read it all).
    private func messageLines(_ status: StatusMessage, ellipsis: String) -> [String] {
        var lines = DetailScreen.wrap(status.text, width: max(10, size.columns - 2))
        guard lines.count > Self.messageLines else { return lines }
        let more = "\(ellipsis) (\(viewContext.label(.messageLog)) shows it all)"
        lines = Array(lines.prefix(Self.messageLines))
        lines[lines.count - 1] =
            TerminalText.truncate(
                lines[lines.count - 1], toWidth: size.columns - 2 - TerminalText.displayWidth(of: more), ellipsis: "")
            + more
        return lines
    }

    /// Draws a message on the status line, wrapped onto the rows above it when it is wider
    /// than the screen. Returns the column after its last line.
    private func drawMessage(
        _ status: StatusMessage, endingAt row: Int, into buffer: inout ScreenBuffer, options: RenderOptions
    ) -> Int {
        let style = status.isError ? CellStyle(.statusError) : CellStyle(.statusBar)
        let lines = messageLines(status, ellipsis: options.ellipsis)
        var used = 0
        for (offset, line) in lines.enumerated() {
            let lineRow = row - lines.count + 1 + offset
            buffer.fill(Rect(column: 0, row: lineRow, columns: size.columns, rows: 1), style: style)
            used = buffer.put(
                " " + line + " ", at: Point(column: 0, row: lineRow), style: style, maxWidth: size.columns,
                truncation: .ellipsis(options.ellipsis))
        }
        return used
    }

    /// Draws the current view's hints, then the command line's and quit's, within `room`
    /// columns; `? help` always keeps its place at the end. Returns the column after them.
    private func drawHints(in room: Int, row: Int, into buffer: inout ScreenBuffer) -> Int {
        let own = model.current.view.hints(in: viewContext).filter {
            !(model.isReadOnly && $0.isDestructive) && model.unsupported[$0.action] == nil
        }
        let shown =
            (own.compactMap { binding in binding.hint.map { (binding.action, $0) } }
            + (model.views.count > 1 ? [(.back, "back")] : []) + [(.command, "command"), (.quit, "quit")]).filter {
                !settings.keyMap.keys(for: $0.0).isEmpty
            }
        func width(_ hint: (KeyAction, String)) -> Int {
            TerminalText.displayWidth(of: label(hint.0)) + TerminalText.displayWidth(of: hint.1) + 3
        }
        let help = settings.keyMap.keys(for: .help).isEmpty ? nil : (KeyAction.help, "help")
        let reserved = help.map(width) ?? 0
        var column = 1
        for hint in shown {
            guard column + width(hint) + reserved <= room else { break }
            column = drawHint(hint, at: column, row: row, into: &buffer)
        }
        if let help, column + reserved <= room + 2 { column = drawHint(help, at: column, row: row, into: &buffer) }
        return column
    }

    private func drawHint(_ hint: (KeyAction, String), at column: Int, row: Int, into buffer: inout ScreenBuffer) -> Int
    {
        let keyEnd = buffer.put(label(hint.0), at: Point(column: column, row: row), style: CellStyle(.key))
        return buffer.put(" " + hint.1 + "  ", at: Point(column: keyEnd, row: row), style: CellStyle(.statusBar))
    }

    /// Draws a text field on the status line: the prompt, as much of the text before the
    /// cursor as fits (its end), the cursor, then the rest. Measured character by character
    /// from the cursor back, so a long paste costs one pass per frame.
    private func drawInput(prompt: String, _ field: TextField, into buffer: inout ScreenBuffer) {
        let row = size.rows - 1
        let style = CellStyle(.input)
        buffer.fill(Rect(column: 0, row: row, columns: size.columns, rows: 1), style: style)
        let characters = Array(field.text)
        let room = size.columns - 2
        var start = field.cursor
        var width = 0
        while start > 0 {
            let next = TerminalText.displayWidth(of: String(characters[start - 1]))
            guard width + next <= room - 1 else { break }
            width += next
            start -= 1
        }
        let shownBefore = String(characters[start..<field.cursor])
        var column = buffer.put(prompt, at: Point(column: 0, row: row), style: style)
        column = buffer.put(shownBefore, at: Point(column: column, row: row), style: style)
        let atCursor = field.cursor < characters.count ? String(characters[field.cursor]) : " "
        buffer.cursor = Point(column: column, row: row)
        column = buffer.put(atCursor, at: Point(column: column, row: row), style: CellStyle(.input, [.reverse]))
        buffer.put(String(characters.dropFirst(field.cursor + 1)), at: Point(column: column, row: row), style: style)
    }
}
