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
}
