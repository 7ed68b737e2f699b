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
                let widths = TableColumn.widths(namespaceColumns, total: inner.size.columns)
                var start = inner.minColumn
                for (index, width) in widths.enumerated() {
                    if point.column < start + width + 1 {
                        let columns: [Int: NamespaceColumn] = [
                            0: .name, 1: .entries, 2: .bytes, 4: .hitRate, 5: .expired,
                        ]
                        return .namespaceHeader(columns[index])
                    }
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
                    + "\(redis.countedAt == nil ? "≥ " : "")\(Formatting.count(file.entries)) entries "
                    + "(\(Formatting.bytes(Int(file.payloadBytes))))\(options.dot)"
                    + "\(snapshot.namespaces.count) namespaces\(options.dot)"
                    + (redis.countedAt.map { "counted by SCAN \(TimeText.ago($0, now: model.now))" }
                        ?? "counting by SCAN\(options.ellipsis)")
            } else {
                "\(Formatting.bytes(Int(file.fileBytes)))\(wal)\(options.dot)\(Formatting.count(file.entries)) entries "
                    + "(\(file.isPayloadCounting ? options.ellipsis : Formatting.bytes(Int(file.payloadBytes))))\(options.dot)"
                    + "\(snapshot.namespaces.count) namespaces\(options.dot)"
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
        column = buffer.put(
            TerminalText.pad(TimeText.percent(activity.hitRate), toWidth: 6, alignment: .trailing),
            at: Point(column: column, row: row), style: CellStyle(hitRateRole(activity.hitRate), [.bold]))
        let sparkWidth = min(30, max(10, width - column - 52))
        buffer.drawSparkline(
            activity.hitRates, at: Point(column: column + 1, row: row), width: sparkWidth, range: 0...1,
            roles: { hitRateRole($0) }, glyphs: options.glyphs)
        // Rates are of the apps attached now: once the last one stopped they are zero, whatever
        // its last seconds of telemetry said (the header says "0 live apps" at once).
        let rates =
            live.isEmpty
            ? [0.0, 0, 0]
            : [activity.operationsPerSecond, activity.expirationsPerSecond, activity.evictionsPerSecond]
        buffer.put(
            "  \(TimeText.rate(rates[0])) ops\(options.dot)"
                + "\(TimeText.rate(rates[1])) expired\(options.dot)"
                + "\(TimeText.rate(rates[2])) evicted",
            at: Point(column: column + 1 + sparkWidth, row: row), maxWidth: width - column - 1 - sparkWidth,
            truncation: .ellipsis(options.ellipsis))
    }

    /// The role a hit rate is drawn in: good from 80 %, warn from 50 %, else bad.
    static func hitRateRole(_ rate: Double?) -> StyleRole {
        guard let rate else { return .muted }
        return rate >= 0.8 ? .good : rate >= 0.5 ? .warn : .bad
    }

    /// The namespace table's columns (the layout tests check rows against them).
    static let namespaceColumns: [TableColumn] = [
        TableColumn(title: "namespace", width: .flexible(minimum: 12, weight: 3)),
        TableColumn(title: "entries", width: .fixed(9), alignment: .trailing),
        TableColumn(title: "bytes", width: .fixed(9), alignment: .trailing),
        TableColumn(title: "", width: .flexible(minimum: 6, weight: 2)),
        TableColumn(title: "hit rate", width: .fixed(10), alignment: .trailing),
        TableColumn(title: "expired", width: .fixed(9), alignment: .trailing),
        TableColumn(title: "version", width: .flexible(minimum: 7, weight: 1)),
    ]

    private static func drawNamespaces(
        _ snapshot: OverviewSnapshot, view: OverviewView, model: ConsoleModel, in area: Rect,
        into buffer: inout ScreenBuffer, options: RenderOptions
    ) {
        let focused = view.pane == .namespaces
        buffer.drawBox(
            area, style: CellStyle(focused ? .title : .border), border: options.border,
            title: "Namespaces (\(snapshot.namespaces.count))")
        let inner = area.insetBy(1)
        guard !inner.isEmpty else { return }
        let widths = TableColumn.widths(namespaceColumns, total: inner.size.columns)
        let sortedColumn: Int =
            switch view.sort {
            case .name: 0
            case .entries: 1
            case .bytes: 2
            case .hitRate: 4
            case .expired: 5
            }
        buffer.drawTableHeader(
            namespaceColumns, widths: widths, at: inner.origin, width: inner.size.columns,
            sorted: (sortedColumn, view.descending), glyphs: options.glyphs)
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
            let changed = view.changedAt[namespace.name] != nil
            let number = CellStyle(changed ? .highlightChanged : .text)
            // Counts still being made are lower bounds, and say so.
            let atLeast = namespace.isExact ? "" : "≥"
            let cells = [
                TableCell(namespace.name),
                TableCell(atLeast + Formatting.count(namespace.entries), number),
                TableCell(
                    namespace.isBytesCounting ? options.ellipsis : atLeast + Formatting.bytes(Int(namespace.bytes)), number),
                TableCell(""),
                TableCell(TimeText.percent(namespace.hitRate), CellStyle(hitRateRole(namespace.hitRate))),
                namespace.hasExpiry
                    ? TableCell(
                        atLeast + Formatting.count(namespace.expired), CellStyle(namespace.expired > 0 ? .warn : .muted))
                    : TableCell("–", CellStyle(.muted)),
                TableCell(namespace.version.isEmpty ? "–" : namespace.version, CellStyle(.muted)),
            ]
            let rowStyle = selected ? CellStyle(focused ? .selection : .selectionInactive) : nil
            buffer.drawTableRow(
                cells, columns: namespaceColumns, widths: widths, at: Point(column: inner.minColumn, row: row),
                width: inner.size.columns, rowStyle: rowStyle)
            let barColumn = inner.minColumn + widths[0] + widths[1] + widths[2] + 3
            buffer.drawBar(
                at: Point(column: barColumn, row: row), width: widths[3],
                fraction: Double(namespace.bytes) / Double(largest), background: rowStyle ?? CellStyle(.barBackground),
                glyphs: options.glyphs)
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
