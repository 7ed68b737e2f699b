import TerminalUI
/// The audit log: every action on the file, newest first, and whether it can be undone.
enum AuditScreen {
    /// The table's columns (the layout tests check rows against them).
    static let columns: [TableColumn] = [
        TableColumn(title: "#", width: .fixed(5), alignment: .trailing),
        TableColumn(title: "when", width: .fixed(8), alignment: .trailing),
        TableColumn(title: "action", width: .flexible(minimum: 16, weight: 3)),
        TableColumn(title: "entries", width: .fixed(9), alignment: .trailing),
        TableColumn(title: "bytes", width: .fixed(9), alignment: .trailing),
        TableColumn(title: "undo", width: .fixed(10)),
        TableColumn(title: "who", width: .flexible(minimum: 6, weight: 1)),
    ]

    static func draw(
        _ view: AuditView, model: ConsoleModel, in area: Rect, into buffer: inout ScreenBuffer,
        options: RenderOptions
    ) {
        buffer.drawBox(area, style: CellStyle(.border), border: options.border, title: "Audit log")
        let inner = area.insetBy(1)
        guard !inner.isEmpty else { return }
        guard let entries = view.entries else {
            buffer.put("Reading the audit log\(options.ellipsis)", at: inner.origin, style: CellStyle(.muted))
            return
        }
        let widths = TableColumn.widths(columns, total: inner.size.columns)
        buffer.drawTableHeader(
            columns, widths: widths, at: inner.origin, width: inner.size.columns, glyphs: options.glyphs)
        if entries.isEmpty {
            buffer.put(
                "No actions yet.", at: Point(column: inner.minColumn + 1, row: inner.minRow + 1),
                style: CellStyle(.muted))
        }
        let height = inner.size.rows - 1
        let first = max(0, view.selection - height + 1)
        for (offset, entry) in entries.dropFirst(first).prefix(height).enumerated() {
            let state =
                entry.isUndone
                ? TableCell("undone", CellStyle(.muted))
                : entry.canUndo ? TableCell("can undo", CellStyle(.good)) : TableCell("–", CellStyle(.muted))
            buffer.drawTableRow(
                [
                    TableCell(String(entry.id)), TableCell(TimeText.ago(entry.at, now: model.now), CellStyle(.muted)),
                    TableCell(entry.action), TableCell(Formatting.count(entry.entries)),
                    TableCell(Formatting.bytes(entry.bytes)), state, TableCell(entry.who, CellStyle(.muted)),
                ], columns: columns, widths: widths,
                at: Point(column: inner.minColumn, row: inner.minRow + 1 + offset), width: inner.size.columns,
                rowStyle: first + offset == view.selection ? CellStyle(.selection) : nil)
        }
    }

    /// One action in full.
    static func drawDetail(
        _ entry: AuditEntry, now: Int64, undoKey: String, in area: Rect, into buffer: inout ScreenBuffer,
        options: RenderOptions
    ) {
        buffer.drawBox(area, style: CellStyle(.border), border: options.border, title: "Action #\(entry.id)")
        let inner = area.insetBy(1)
        guard !inner.isEmpty else { return }
        let origin = entry.origin
        let state =
            entry.isUndone
            ? ("undone", StyleRole.muted)
            : entry.canUndo
                ? ("can be undone: \(undoKey) restores what it removed", .good) : ("cannot be undone", .muted)
        let facts: [(String, String, StyleRole)] = [
            ("Action", entry.action, .title),
            ("When", "\(TimeText.timestamp(entry.at)) (\(TimeText.ago(entry.at, now: now)))", .text),
            ("Who", origin?.user ?? entry.who, .text),
            ("Host", origin?.host ?? "–", .text),
            ("Process", origin.map { "\($0.program) (pid \($0.pid))" } ?? "–", .text),
            ("Removed", "\(Formatting.count(entry.entries)) \(entry.entries == 1 ? "entry" : "entries")", .text),
            ("Bytes", Formatting.bytes(entry.bytes), .text),
            ("Undo", state.0, state.1),
            (
                "Keys",
                entry.sampleKeys.isEmpty
                    ? "–"
                    : entry.sampleKeys.joined(separator: ", ")
                        + (entry.entries > entry.sampleKeys.count ? ", \(options.ellipsis)" : ""), .text
            ),
        ]
        for (offset, fact) in facts.prefix(inner.size.rows).enumerated() {
            let row = inner.minRow + offset
            let end = buffer.put(
                " " + TerminalText.pad(fact.0, toWidth: 10), at: Point(column: inner.minColumn, row: row),
                style: CellStyle(.muted))
            buffer.put(
                fact.1, at: Point(column: end, row: row), style: CellStyle(fact.2), maxWidth: inner.maxColumn - end - 1,
                truncation: .ellipsis(options.ellipsis))
        }
    }
}
