import TerminalUI

/// A titled table of a report screen (the topology, the slow log): a title line, the column
/// headings, the rows (or a line saying why there are none), then a blank line.
struct ReportBlock {
    var title: String
    var titleStyle = CellStyle(.title)
    var columns: [TableColumn]
    var rows: [[TableCell]]
    /// What shows instead of rows when there are none.
    var empty: String

    /// The lines the block takes.
    var height: Int { 3 + max(1, rows.count) }
}

/// Draws report blocks one under the other, scrolled by lines.
enum ReportScreen {
    /// The lines `blocks` take.
    static func height(_ blocks: [ReportBlock]) -> Int { blocks.reduce(0) { $0 + $1.height } }

    /// `scroll` moved by `move` within `blocks` shown in the console's body at `size`.
    static func scrolled(_ scroll: Int, by move: ListMove, blocks: [ReportBlock], context: ViewContext) -> Int {
        let visible = max(1, ConsoleLayout.body(context.size).size.rows)
        return max(0, min(scroll.addingClamped(move.delta(page: context.pageRows)), height(blocks) - visible))
    }

    static func draw(
        _ blocks: [ReportBlock], scroll: Int, in area: Rect, into buffer: inout ScreenBuffer, options: RenderOptions
    ) {
        var line = -scroll
        let width = area.size.columns - 2
        func row(_ draw: (Point, inout ScreenBuffer) -> Void) {
            defer { line += 1 }
            guard line >= 0, line < area.size.rows else { return }
            draw(Point(column: area.minColumn + 1, row: area.minRow + line), &buffer)
        }
        for block in blocks {
            let widths = TableColumn.widths(block.columns, total: width)
            row { point, buffer in
                buffer.put(
                    block.title, at: point, style: block.titleStyle, maxWidth: width,
                    truncation: .ellipsis(options.ellipsis))
            }
            row { point, buffer in
                buffer.drawTableHeader(block.columns, widths: widths, at: point, width: width, glyphs: options.glyphs)
            }
            if block.rows.isEmpty {
                row { point, buffer in buffer.put(block.empty, at: point, style: CellStyle(.muted), maxWidth: width) }
            }
            for cells in block.rows {
                row { point, buffer in
                    buffer.drawTableRow(cells, columns: block.columns, widths: widths, at: point, width: width)
                }
            }
            row { _, _ in }
        }
    }
}
