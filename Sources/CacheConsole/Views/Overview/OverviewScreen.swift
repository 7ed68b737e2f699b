import TerminalUI
import Foundation

/// The Overview: the file, attached processes, activity, and the namespace table (with the
/// process list beside it on wide terminals, or in its place after Tab).
enum OverviewScreen {
    /// Lines of facts above the tables.
    static let factRows = 4
    /// Terminals at least this wide show both tables side by side.
    static let sideBySideColumns = 110
    /// The process table's width when side by side.
    static let processColumns = 44

    /// Namespace rows that fit at `size`.
    static func listHeight(for size: Size) -> Int {
        max(1, ConsoleLayout.body(size).size.rows - factRows - 3)
    }

    /// `scroll` adjusted so `selection` is visible in `height` rows.
    static func scroll(_ scroll: Int, selection: Int, height: Int) -> Int {
        min(selection, max(scroll, selection - height + 1))
    }

    /// What a click at `point` lands on.
    enum Hit {
        /// A namespace row, counted from the first one shown.
        case namespaceRow(Int)
        /// The namespace table's heading, over a sortable column or not.
        case namespaceHeader(NamespaceColumn?)
        /// A process row.
        case processRow(Int)
        /// Elsewhere on the process panel.
        case processPanel
    }

    /// Where the namespace and process tables are in `area` (`nil` for one not shown).
    private static func panels(in area: Rect, pane: OverviewView.Pane) -> (namespaces: Rect?, processes: Rect?) {
        let tables = Rect(
            column: area.minColumn, row: area.minRow + factRows, columns: area.size.columns,
            rows: area.size.rows - factRows)
        guard area.size.columns >= sideBySideColumns else {
            return pane == .processes ? (nil, tables) : (tables, nil)
        }
        let left = Rect(
            column: tables.minColumn, row: tables.minRow, columns: tables.size.columns - processColumns,
            rows: tables.size.rows)
        return (left, Rect(column: left.maxColumn, row: tables.minRow, columns: processColumns, rows: tables.size.rows))
    }

    /// What `point` is on, if anything clickable.
    static func hit(_ point: Point, in area: Rect, view: OverviewView) -> Hit? {
        let (namespaces, processes) = panels(in: area, pane: view.pane)
        if let namespaces, namespaces.contains(point) {
            let inner = namespaces.insetBy(1)
            guard inner.contains(point) else { return nil }
            guard point.row > inner.minRow else {
                let fields = NamespaceField.fitting(inner.size.columns)
                let widths = TableColumn.widths(NamespaceField.columns(fields), total: inner.size.columns)
                var start = inner.minColumn
                for (field, width) in zip(fields, widths) {
                    if point.column < start + width + 1 { return .namespaceHeader(field.sortColumn) }
                    start += width + 1
                }
                return .namespaceHeader(nil)
            }
            return .namespaceRow(point.row - inner.minRow - 1)
        }
        if let processes, processes.contains(point) {
            let inner = processes.insetBy(1)
            return inner.contains(point) && point.row > inner.minRow
                ? .processRow(point.row - inner.minRow - 1) : .processPanel
        }
        return nil
    }

    static func draw(
        _ view: OverviewView, model: ConsoleModel, in area: Rect, into buffer: inout ScreenBuffer,
        options: RenderOptions
    ) {
        guard let snapshot = model.overview else {
            buffer.put(" Reading the file\(options.ellipsis)", at: area.origin, style: CellStyle(.muted))
            return
        }
        drawFacts(snapshot, model: model, in: area, into: &buffer, options: options)
        let (namespaces, processes) = panels(in: area, pane: view.pane)
        if let namespaces {
            drawNamespaces(snapshot, view: view, model: model, in: namespaces, into: &buffer, options: options)
        }
        if let processes {
            drawProcesses(snapshot, view: view, model: model, in: processes, into: &buffer, options: options)
        }
    }

    private static func drawFacts(
        _ snapshot: OverviewSnapshot, model: ConsoleModel, in area: Rect, into buffer: inout ScreenBuffer,
        options: RenderOptions
    ) {
        let file = snapshot.file
        let width = area.size.columns - 1
        var row = area.minRow
        func label(_ text: String) -> Int {
            buffer.put(
                " " + TerminalText.pad(text, toWidth: 6), at: Point(column: area.minColumn, row: row),
                style: CellStyle(.muted))
        }
        var column = label(snapshot.redis == nil ? "File" : "Redis")
        let wal = file.walBytes > 0 ? " + \(Formatting.bytes(Int(file.walBytes))) WAL" : ""
        let facts =
            if let redis = snapshot.redis {
                "\(redis.server.version)\(options.dot)\(Formatting.bytes(redis.server.usedMemory)) used\(options.dot)"
                    + "\(redis.countedAt == nil ? "≥ " : "")\(Formatting.entries(file.entries)) "
                    + "(\(Formatting.bytes(Int(file.payloadBytes))))\(options.dot)"
                    + "\(Formatting.namespaces(snapshot.namespaces.count))\(options.dot)"
                    + (redis.countedAt.map { "counted by SCAN \(TimeText.ago($0, now: model.now))" }
                        ?? "counting by SCAN\(options.ellipsis)")
            } else {
                "\(Formatting.bytes(Int(file.fileBytes)))\(wal)\(options.dot)\(Formatting.entries(file.entries)) "
                    + "(\(file.isPayloadCounting ? options.ellipsis : Formatting.bytes(Int(file.payloadBytes))))\(options.dot)"
                    + "\(Formatting.namespaces(snapshot.namespaces.count))\(options.dot)"
                    + (file.foreignFormat.map { "\($0), read-only" } ?? "format \(file.formatVersion)")
            }
        buffer.put(
            facts, at: Point(column: column, row: row), maxWidth: width - column,
            truncation: .ellipsis(options.ellipsis))

        row += 1
        if file.foreignFormat != nil {
            // Other libraries record no apps and no telemetry: unknown, not zero.
            for name in ["Apps", "Hits"] {
                column = label(name)
                buffer.put(
                    "– (this format records none)", at: Point(column: column, row: row), style: CellStyle(.muted),
                    maxWidth: width - column, truncation: .ellipsis(options.ellipsis))
                row += 1
            }
            return
        }
        column = label("Apps")
        let live = snapshot.processes.filter(\.isLive)
        let stopped = snapshot.processes.count - live.count
        column = buffer.put(
            "\(options.liveGlyph) \(live.count) live", at: Point(column: column, row: row),
            style: CellStyle(live.isEmpty ? .muted : .good))
        column = buffer.put(
            "  \(options.stoppedGlyph) \(stopped) stopped", at: Point(column: column, row: row),
            style: CellStyle(.muted))
        if let first = live.first {
            let others = live.count > 1 ? " and \(live.count - 1) more" : ""
            buffer.put(
                "\(options.dot)\(first.program) (pid \(first.pid) on \(first.host))\(others)",
                at: Point(column: column, row: row), maxWidth: width - column, truncation: .ellipsis(options.ellipsis))
        } else if snapshot.processes.isEmpty {
            buffer.put(
                "\(options.dot)no app has attached (telemetry appears when one does)",
                at: Point(column: column, row: row), style: CellStyle(.muted), maxWidth: width - column,
                truncation: .ellipsis(options.ellipsis))
        }

        row += 1
        column = label("Hits")
        let activity = snapshot.activity
        // Rates are of the apps attached now: once the last one stopped they are zero, whatever
        // its last seconds of telemetry said (the header says "0 live apps" at once), and the
        // hit rate of no reads is unknown. Both are over the same last seconds, which are named.
        let rates =
            live.isEmpty
            ? [0.0, 0, 0]
            : [activity.operationsPerSecond, activity.expirationsPerSecond, activity.evictionsPerSecond]
        let hitRate = live.isEmpty ? nil : activity.hitRate
        column = buffer.put(
            TerminalText.pad(TimeText.percent(hitRate), toWidth: 6, alignment: .trailing),
            at: Point(column: column, row: row), style: CellStyle(hitRateRole(hitRate), [.bold]))
        let sparkWidth = min(30, max(10, width - column - 57))
        buffer.drawSparkline(
            activity.hitRates, at: Point(column: column + 1, row: row), width: sparkWidth, range: 0...1,
            roles: { hitRateRole($0) }, glyphs: options.glyphs)
        buffer.put(
            "  \(TimeText.rate(rates[0])) ops\(options.dot)"
                + "\(TimeText.rate(rates[1])) expired\(options.dot)"
                + "\(TimeText.rate(rates[2])) evicted (\(ActivityFacts.window) s)",
            at: Point(column: column + 1 + sparkWidth, row: row), maxWidth: width - column - 1 - sparkWidth,
            truncation: .ellipsis(options.ellipsis))
    }

    /// The role a hit rate is drawn in: good from 80 %, warn from 50 %, else bad.
    static func hitRateRole(_ rate: Double?) -> StyleRole {
        guard let rate else { return .muted }
        return rate >= 0.8 ? .good : rate >= 0.5 ? .warn : .bad
    }

    /// The namespace table's fields at terminal `size` (as many as its panel's width allows).
    static func namespaceFields(for size: Size) -> [NamespaceField] {
        let body = ConsoleLayout.body(size)
        let sideBySide = body.size.columns >= sideBySideColumns
        return NamespaceField.fitting(body.size.columns - (sideBySide ? processColumns : 0) - 2)
    }

    /// The columns the namespace table can be sorted by at `size`: those it shows.
    static func sortColumns(for size: Size) -> [NamespaceColumn] {
        namespaceFields(for: size).compactMap(\.sortColumn)
    }

    private static func drawNamespaces(
        _ snapshot: OverviewSnapshot, view: OverviewView, model: ConsoleModel, in area: Rect,
        into buffer: inout ScreenBuffer, options: RenderOptions
    ) {
        let focused = view.pane == .namespaces
        buffer.drawBox(
            area, style: CellStyle(focused ? .title : .border), border: options.border,
            title: "Namespaces (\(snapshot.namespaces.count))\(options.dot)/m and ops/s: last minute")
        let inner = area.insetBy(1)
        guard !inner.isEmpty else { return }
        let fields = NamespaceField.fitting(inner.size.columns)
        let columns = NamespaceField.columns(fields)
        let widths = TableColumn.widths(columns, total: inner.size.columns)
        buffer.drawTableHeader(
            columns, widths: widths, at: inner.origin, width: inner.size.columns,
            sorted: fields.firstIndex { $0.sortColumn == view.sort }.map { ($0, view.descending) },
            glyphs: options.glyphs)
        let largest = max(1, snapshot.namespaces.map(\.bytes).max() ?? 1)
        let height = inner.size.rows - 1
        guard height > 0 else { return }
        if snapshot.namespaces.isEmpty {
            buffer.put(
                "No namespaces yet.", at: Point(column: inner.minColumn, row: inner.minRow + 1),
                style: CellStyle(.muted))
        }
        for (offset, namespace) in view.ordered(snapshot.namespaces).dropFirst(view.scroll).prefix(height).enumerated()
        {
            let index = view.scroll + offset
            let row = inner.minRow + 1 + offset
            let selected = index == view.selection
            let number = CellStyle(view.changedAt[namespace.name] != nil ? .highlightChanged : .text)
            let cells = fields.map { $0.cell(namespace, number: number, options: options) }
            let rowStyle = selected ? CellStyle(focused ? .selection : .selectionInactive) : nil
            buffer.drawTableRow(
                cells, columns: columns, widths: widths, at: Point(column: inner.minColumn, row: row),
                width: inner.size.columns, rowStyle: rowStyle)
            if let bar = fields.firstIndex(of: .bar) {
                let barColumn = inner.minColumn + widths[..<bar].reduce(bar) { $0 + $1 }
                buffer.drawBar(
                    at: Point(column: barColumn, row: row), width: widths[bar],
                    fraction: Double(namespace.bytes) / Double(largest),
                    background: rowStyle ?? CellStyle(.barBackground), glyphs: options.glyphs)
            }
        }
    }

    private static func drawProcesses(
        _ snapshot: OverviewSnapshot, view: OverviewView, model: ConsoleModel, in area: Rect,
        into buffer: inout ScreenBuffer, options: RenderOptions
    ) {
        let focused = view.pane == .processes
        buffer.drawBox(
            area, style: CellStyle(focused ? .title : .border), border: options.border,
            title: "Processes (\(snapshot.processes.count))")
        let inner = area.insetBy(1)
        guard !inner.isEmpty else { return }
        let columns = [
            TableColumn(title: "", width: .fixed(1)),
            TableColumn(title: "pid", width: .fixed(7), alignment: .trailing),
            TableColumn(title: "program", width: .flexible(minimum: 8, weight: 2)),
            TableColumn(title: "seen", width: .fixed(8), alignment: .trailing),
        ]
        let widths = TableColumn.widths(columns, total: inner.size.columns)
        buffer.drawTableHeader(
            columns, widths: widths, at: inner.origin, width: inner.size.columns, glyphs: options.glyphs)
        if snapshot.processes.isEmpty {
            buffer.put(
                "No app has attached.", at: Point(column: inner.minColumn, row: inner.minRow + 1),
                style: CellStyle(.muted), maxWidth: inner.size.columns)
        }
        for (index, process) in snapshot.processes.prefix(inner.size.rows - 1).enumerated() {
            let cells = [
                TableCell(
                    process.isLive ? options.liveGlyph : options.stoppedGlyph,
                    CellStyle(process.isLive ? .good : .muted)),
                TableCell(String(process.pid)),
                TableCell(
                    "\(process.program)@\(process.host)" + (process.stores > 1 ? " (\(process.stores) stores)" : "")),
                TableCell(TimeText.ago(process.lastSeen, now: model.now), CellStyle(.muted)),
            ]
            let selected = focused && index == view.processSelection
            buffer.drawTableRow(
                cells, columns: columns, widths: widths,
                at: Point(column: inner.minColumn, row: inner.minRow + 1 + index), width: inner.size.columns,
                rowStyle: selected ? CellStyle(.selection) : nil)
        }
    }
}
