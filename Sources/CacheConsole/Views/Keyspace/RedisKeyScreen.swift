import TerminalUI
import CacheCore
import CacheCoreRedis

/// A Redis key: its facts, then its value's preview in a scrolling box.
enum RedisKeyScreen {
    /// Fact lines above the preview.
    private static let factRows = 4

    /// Preview lines that fit at `size`.
    static func previewHeight(for size: Size) -> Int {
        max(1, ConsoleLayout.body(size).size.rows - factRows - 2)
    }

    /// The preview's lines, wrapped to the box at terminal width `columns`.
    static func lines(_ detail: RedisKeyDetail, columns: Int) -> [String] {
        KeyspaceText.previewLines(detail.preview).flatMap { DetailScreen.wrap($0, width: max(8, columns - 4)) }
    }

    static func draw(
        _ view: RedisKeyView, now: Int64, in area: Rect, into buffer: inout ScreenBuffer, options: RenderOptions
    ) {
        guard let detail = view.detail else {
            let text = view.isGone ? "This key no longer exists." : "Reading the key\(options.ellipsis)"
            buffer.put(" " + text, at: area.origin, style: CellStyle(view.isGone ? .warn : .muted))
            return
        }
        let half = area.size.columns / 2
        func fact(_ name: String, _ value: String, row: Int, column: Int = 0, style: CellStyle = .text) {
            let point = Point(column: area.minColumn + column, row: area.minRow + row)
            let end = buffer.put(" " + TerminalText.pad(name, toWidth: 9), at: point, style: CellStyle(.muted))
            let limit = row == 0 || column > 0 ? area.maxColumn : area.minColumn + half
            buffer.put(
                value, at: Point(column: end, row: point.row), style: style, maxWidth: limit - end - 1,
                truncation: .ellipsis(options.ellipsis))
        }
        fact("Key", detail.keyText, row: 0, style: CellStyle(.title))
        fact("Type", "\(detail.type) (\(detail.encoding))", row: 1)
        fact(
            "Length", KeyspaceText.length(detail) ?? "–", row: 1,
            column: half)
        fact("Memory", KeyspaceText.bytes(detail.bytes) + (detail.bytes.isSampled ? " (sampled by Redis)" : ""), row: 2)
        fact("Expires", KeyspaceText.expiry(detail.expiresAt, now: now), row: 2, column: half)
        if view.isGone { fact("", "gone since read", row: 3, style: CellStyle(.warn)) }
        let box = Rect(
            column: area.minColumn, row: area.minRow + factRows, columns: area.size.columns,
            rows: area.size.rows - factRows)
        let lines = lines(detail, columns: box.size.columns)
        let position =
            lines.isEmpty
            ? ""
            : "\(options.dot)lines \(view.scroll + 1)–\(min(lines.count, view.scroll + box.size.rows - 2)) of \(lines.count)"
        buffer.drawBox(box, style: CellStyle(.border), border: options.border, title: "Value\(position)")
        let inner = box.insetBy(1)
        for (offset, line) in lines.dropFirst(view.scroll).prefix(inner.size.rows).enumerated() {
            buffer.put(
                " " + line, at: Point(column: inner.minColumn, row: inner.minRow + offset), maxWidth: inner.size.columns
            )
        }
    }
}
