import TerminalUI
import CacheCore
import CacheCoreRedis

/// One level of the keyspace tree: a table of prefixes and keys with their share of the
/// level's memory as a bar, and the scan's progress on the last row.
enum KeyspaceScreen {
    private static let columns = [
        TableColumn(title: "Name", width: .flexible(minimum: 12, weight: 1)),
        TableColumn(title: "Keys", width: .fixed(10), alignment: .trailing),
        TableColumn(title: "Memory", width: .fixed(10), alignment: .trailing),
        TableColumn(title: "", width: .fixed(16)),
        TableColumn(title: "Type", width: .fixed(7)),
        TableColumn(title: "TTL", width: .fixed(8)),
    ]

    static func draw(
        _ view: KeyspaceView, now: Int64, in area: Rect, into buffer: inout ScreenBuffer, options: RenderOptions
    ) {
        guard let snapshot = view.snapshot else {
            buffer.put(" Scanning the keyspace\(options.ellipsis)", at: area.origin, style: CellStyle(.muted))
            return
        }
        let level = snapshot.level
        let widths = TableColumn.widths(columns, total: area.size.columns - 2)
        buffer.drawTableHeader(
            columns, widths: widths, at: Point(column: area.minColumn + 1, row: area.minRow),
            width: area.size.columns - 2,
            sorted: (view.order.column, view.order.isDescendingByDefault != view.isReversed), glyphs: options.glyphs)
        let rows = max(0, area.size.rows - 2)
        let children = view.children
        if children.isEmpty {
            let text =
                !view.search.isEmpty
                ? "No name here matches /\(view.search) (Esc clears it)."
                : level.scan.isComplete ? "No keys here." : "No keys found yet\(options.ellipsis)"
            buffer.put(" " + text, at: Point(column: area.minColumn, row: area.minRow + 1), style: CellStyle(.muted))
        }
        let top = max(0, view.selection - rows + 1)
        let total = max(1, level.bytes.value)
        let barColumn = area.minColumn + 1 + widths[0] + widths[1] + widths[2] + 3
        for (offset, child) in children.dropFirst(top).prefix(rows).enumerated() {
            let row = area.minRow + 1 + offset
            let isSelected = top + offset == view.selection
            let name = child.kind == .prefix ? child.nameText : child.nameText.isEmpty ? "(empty)" : child.nameText
            let mark = view.marks.contains(child.path) ? options.markGlyph + " " : ""
            let cells = [
                TableCell(mark + name, CellStyle(child.kind == .prefix ? .title : mark.isEmpty ? .text : .marked)),
                TableCell(KeyspaceText.count(child.keys)),
                TableCell(KeyspaceText.bytes(child.bytes)),
                TableCell(""),
                TableCell(child.type?.rawValue ?? "", CellStyle(.muted)),
                TableCell(child.kind == .key ? KeyspaceText.expiry(child.expiresAt, now: now) : ""),
            ]
            buffer.drawTableRow(
                cells, columns: columns, widths: widths, at: Point(column: area.minColumn + 1, row: row),
                width: area.size.columns - 2, rowStyle: isSelected ? CellStyle(.selection) : nil)
            buffer.drawBar(
                at: Point(column: barColumn, row: row), width: widths[3],
                fraction: Double(child.bytes.value) / Double(total), glyphs: options.glyphs)
        }
        let more = level.childCount - level.children.count
        let matching =
            view.search.isEmpty
            ? ""
            : "\(options.dot)/\(view.search): \(Formatting.count(children.count)) of "
                + "\(Formatting.count(level.children.count)) loaded match"
        let summary =
            (level.prefixText.isEmpty ? "top level" : level.prefixText) + options.dot
            + "\(KeyspaceText.count(level.keys)) \(level.keys.value == 1 ? "key" : "keys")" + options.dot
            + KeyspaceText.bytes(level.bytes) + options.dot
            + KeyspaceText.progress(level.scan, ellipsis: options.ellipsis)
            + matching
            + (more > 0 ? "\(options.dot)\(Formatting.count(more)) smaller not listed" : "")
            + (level.unlistedKeys > 0
                ? "\(options.dot)\(Formatting.count(level.unlistedKeys)) counted, not listed (memory bound): ~ estimates"
                : level.bytes.isSampled ? "\(options.dot)~ sampled by Redis" : "")
            + (level.scan.isComplete ? "" : "\(options.dot)≥ until the scan ends")
            + (view.marks.isEmpty ? "" : "\(options.dot)\(Formatting.count(view.marks.count)) marked (d deletes them)")
        buffer.put(
            " " + summary, at: Point(column: area.minColumn, row: area.maxRow - 1),
            style: CellStyle(level.scan.isComplete ? .muted : .info), maxWidth: area.size.columns,
            truncation: .ellipsis(options.ellipsis))
    }
}
