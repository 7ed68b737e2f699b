import Foundation

extension ConsoleController {
    /// The whole screen for the current state at ``size``: header, breadcrumbs, the view,
    /// the status line, and any overlay; or the "terminal too small" notice.
    public func render(options: RenderOptions = RenderOptions()) -> ScreenBuffer {
        var buffer = ScreenBuffer(size: size)
        guard ConsoleLayout.fits(size) else {
            TooSmallScreen.draw(size: size, into: &buffer)
            return buffer
        }
        let body = ConsoleLayout.body(size)
        drawHeader(into: &buffer, options: options)
        drawBreadcrumbs(into: &buffer, options: options)
        switch model.current.content {
        case .overview(let view): OverviewScreen.draw(view, model: model, in: body, into: &buffer, options: options)
        case .entries(let view): EntriesScreen.draw(view, model: model, in: body, into: &buffer, options: options)
        case .detail(let view): DetailScreen.draw(view, model: model, in: body, into: &buffer, options: options)
        case .timeline(let view): TimelineScreen.draw(view, in: body, into: &buffer, options: options)
        case .statistics(let view): StatisticsScreen.draw(view, model: model, in: body, into: &buffer, options: options)
        case .audit(let view): AuditScreen.draw(view, model: model, in: body, into: &buffer, options: options)
        case .help(let view):
            HelpScreen.draw(view, keyMap: settings.keyMap, isReadOnly: model.isReadOnly, in: body, into: &buffer)
        }
        drawStatus(into: &buffer, options: options)
        switch model.overlay {
        case .filter(let field):
            drawInput(prompt: "/", field, into: &buffer)
            if let status = model.status, status.isError {
                let row = Rect(column: 0, row: size.rows - 2, columns: size.columns, rows: 1)
                buffer.fill(row, style: CellStyle(.statusError))
                buffer.put(
                    " " + status.text, at: row.origin, style: CellStyle(.statusError), maxWidth: size.columns,
                    truncation: .ellipsis(options.ellipsis))
            }
        case .command(let field, let completions):
            drawInput(prompt: ":", field, into: &buffer)
            if !completions.isEmpty {
                let row = Rect(column: 0, row: size.rows - 2, columns: size.columns, rows: 1)
                buffer.fill(row, style: CellStyle(.dialog))
                buffer.put(
                    " " + completions.joined(separator: "  "), at: row.origin, style: CellStyle(.dialog),
                    maxWidth: size.columns, truncation: .ellipsis(options.ellipsis))
            }
        case .confirm(let dialog): ConfirmScreen.draw(dialog, in: body, into: &buffer, options: options)
        case nil: break
        }
        return buffer
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
            URL(fileURLWithPath: model.location).lastPathComponent
            + (model.overview?.file.owner.map { ", owned by \($0)" } ?? "")
        column = buffer.put(
            " " + name, at: Point(column: column, row: 0), style: style, maxWidth: max(0, rightStart - column - 1),
            truncation: .ellipsis(options.ellipsis))
        if let processes = model.overview?.processes {
            let live = processes.filter(\.isLive).count
            let text = "  \(options.liveGlyph) \(live) live \(live == 1 ? "app" : "apps")"
            column = buffer.put(
                text, at: Point(column: column, row: 0), style: style, maxWidth: max(0, rightStart - column - 1))
        }
        var position = max(column + 1, rightStart)
        for (index, part) in right.enumerated() {
            position = buffer.put((index > 0 ? "  " : "") + part.0, at: Point(column: position, row: 0), style: part.1)
        }
    }

    private func drawBreadcrumbs(into buffer: inout ScreenBuffer, options: RenderOptions) {
        let row = 1
        buffer.fill(Rect(column: 0, row: row, columns: size.columns, rows: 1))
        let tabs: [(KeyAction, String)] = [
            (.showOverview, "Overview"), (.showTimeline, "Timeline"), (.showStatistics, "Stats"),
            (.showAudit, "Audit"), (.help, "Help"),
        ]
        let active: KeyAction? =
            switch model.current.content {
            case .overview: .showOverview
            case .timeline: .showTimeline
            case .statistics: .showStatistics
            case .audit: .showAudit
            case .help: .help
            case .entries, .detail: nil
            }
        let tabText = tabs.map { "\(label($0.0)) \($0.1)" }.joined(separator: "  ")
        let showTabs = size.columns >= 100
        let crumbWidth = size.columns - (showTabs ? TerminalText.displayWidth(of: tabText) + 3 : 1)
        let crumbs = breadcrumbs.joined(separator: options.crumbSeparator)
        buffer.put(
            " " + crumbs, at: Point(column: 0, row: row), style: CellStyle(.breadcrumb), maxWidth: crumbWidth,
            truncation: .ellipsis(options.ellipsis))
        guard showTabs else { return }
        var column = size.columns - TerminalText.displayWidth(of: tabText) - 1
        for (index, tab) in tabs.enumerated() {
            let style = tab.0 == active ? CellStyle(.title) : CellStyle(.muted)
            column = buffer.put(
                (index > 0 ? "  " : "") + "\(label(tab.0)) \(tab.1)", at: Point(column: column, row: row), style: style)
        }
    }

    /// The path to the current view: file, namespace, entry, and the auxiliary view.
    var breadcrumbs: [String] {
        var crumbs = [URL(fileURLWithPath: model.location).lastPathComponent]
        for view in model.views.dropFirst() {
            switch view.content {
            case .overview: break
            case .entries(let entries):
                crumbs.append(entries.filter.isEmpty ? entries.namespace : "\(entries.namespace) /\(entries.filter)")
            case .detail(let detail): crumbs.append(detail.key)
            case .timeline(let timeline): crumbs.append("timeline" + (timeline.namespace.map { " of \($0)" } ?? ""))
            case .statistics(let statistics):
                let names = model.namespaceNames
                let scope = names.indices.contains(statistics.selection - 1) ? names[statistics.selection - 1] : "all"
                crumbs.append("statistics of \(scope), last \(statistics.window.rawValue)")
            case .audit: crumbs.append("audit log")
            case .help: crumbs.append("help")
            }
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
        let timingWidth = TerminalText.displayWidth(of: timing)
        let room = size.columns - timingWidth - 2
        var used = 0
        if let busy = model.busy {
            let spinner = ["|", "/", "-", "\\"][Int((model.now - busy.since) / 250 % 4)]
            used = buffer.put(
                " \(spinner) \(busy.title)\(options.ellipsis) \(TimeText.span(model.now - busy.since))"
                    + (busy.quitsAfter ? "; quitting when it finishes" : ""),
                at: Point(column: 0, row: row), style: CellStyle(.statusBar, [.bold]), maxWidth: size.columns,
                truncation: .ellipsis(options.ellipsis))
        } else if let status = model.status,
            model.now - status.since < ConsoleController.messageLifetime * (status.isError ? 3 : 1)
        {
            used = buffer.put(
                " " + status.text + " ", at: Point(column: 0, row: row),
                style: status.isError ? CellStyle(.statusError) : style, maxWidth: size.columns,
                truncation: .ellipsis(options.ellipsis))
        } else {
            var column = 1
            for (action, text) in hints {
                let key = label(action)
                let width = TerminalText.displayWidth(of: key) + TerminalText.displayWidth(of: text) + 1
                guard column + width <= room else { break }
                let keyEnd = buffer.put(key, at: Point(column: column, row: row), style: CellStyle(.key))
                column = buffer.put(" " + text + "  ", at: Point(column: keyEnd, row: row), style: style)
            }
            used = column
        }
        if used <= size.columns - timingWidth {
            buffer.put(
                timing, at: Point(column: size.columns - timingWidth, row: row), style: CellStyle(.statusBar, [.dim]))
        }
    }

    /// The key hints for the current view.
    private var hints: [(KeyAction, String)] {
        let actions: [(KeyAction, String)] =
            switch model.current.content {
            case .overview:
                [
                    (.drillIn, "open"), (.sortNext, "sort"), (.nextPane, "panel"), (.sweep, "sweep"),
                    (.clearNamespace, "clear"),
                ]
            case .entries:
                [
                    (.drillIn, "open"), (.filter, "filter"), (.sortNext, "sort"), (.toggleMark, "mark"),
                    (.invalidate, "invalidate"),
                ]
            case .detail: [(.toggleHex, "hex"), (.invalidate, "invalidate"), (.back, "back")]
            case .timeline: [(.sweep, "sweep"), (.back, "back")]
            case .statistics: [(.cycleWindow, "window"), (.nextPane, "panel"), (.back, "back")]
            case .audit: [(.undo, "undo"), (.back, "back")]
            case .help: [(.back, "back")]
            }
        let common: [(KeyAction, String)] = [(.command, "command"), (.help, "help"), (.quit, "quit")]
        let shown = model.isReadOnly ? actions.filter { !Self.destructive.contains($0.0) } : actions
        return (shown + common).filter { !settings.keyMap.keys(for: $0.0).isEmpty }
    }

    /// Actions a read-only console hides.
    static let destructive: Set<KeyAction> = [.sweep, .clearNamespace, .invalidate, .undo]

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
        column = buffer.put(atCursor, at: Point(column: column, row: row), style: CellStyle(.input, [.reverse]))
        buffer.put(String(characters.dropFirst(field.cursor + 1)), at: Point(column: column, row: row), style: style)
    }
}
