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

/// A view that shows what one read brings back as report blocks, scrolled by lines (the
/// topology, the slow log, a keyspace breakdown): it stores the read's output, draws its
/// blocks, and the movement keys scroll.
protocol ReportView: ConsoleView {
    /// What the read brought back last (`nil` until it arrives).
    var report: Read.Output? { get set }
    /// The first line shown.
    var scroll: Int { get set }
    /// What shows until the first read arrives.
    static var loadingText: String { get }
    /// The blocks to draw at `now`.
    func blocks(now: Int64) -> [ReportBlock]
}

extension ReportView {
    package static var bindings: [KeyBinding<Self>] {
        KeyBinding.listMotion { view, move, context in
            view.scroll = ReportScreen.scrolled(view.scroll, by: move, blocks: view.blocks(now: context.now), context: context)
            return []
        }
    }

    package mutating func apply(_ output: Read.Output, for read: Read, in context: inout ViewContext) -> [ConsoleEffect] {
        report = output
        return []
    }

    package func draw(in area: Rect, into buffer: inout ScreenBuffer, context: ViewContext, options: RenderOptions) {
        guard report != nil else {
            buffer.put(" \(Self.loadingText)\(options.ellipsis)", at: area.origin, style: CellStyle(.muted))
            return
        }
        ReportScreen.draw(blocks(now: context.now), scroll: scroll, in: area, into: &buffer, options: options)
    }
}
