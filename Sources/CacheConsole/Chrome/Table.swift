import TerminalUI
/// A column of a table on screen.
struct TableColumn {
    /// How wide a column is.
    enum Width {
        /// Exactly this many cells.
        case fixed(Int)
        /// At least `minimum` cells, plus a share of what is left in proportion to `weight`.
        case flexible(minimum: Int, weight: Int)
    }

    /// The heading.
    var title: String
    /// The width rule.
    var width: Width
    /// Where text sits in the column.
    var alignment: TextAlignment = .leading

    /// The widths of `columns` across `total` cells with one space between columns.
    static func widths(_ columns: [TableColumn], total: Int) -> [Int] {
        var fixed = max(0, columns.count - 1)
        var weights = 0
        for column in columns {
            switch column.width {
            case .fixed(let width): fixed += width
            case .flexible(let minimum, let weight):
                fixed += minimum
                weights += weight
            }
        }
        var spare = max(0, total - fixed)
        var flexibleLeft = weights
        return columns.map { column in
            switch column.width {
            case .fixed(let width): return width
            case .flexible(let minimum, let weight):
                guard flexibleLeft > 0 else { return minimum }
                let share = spare * weight / flexibleLeft
                spare -= share
                flexibleLeft -= weight
                return minimum + share
            }
        }
    }
}

/// One cell of a table row.
struct TableCell {
    /// The text (sanitized and truncated when drawn).
    var text: String
    /// Its style.
    var style: CellStyle = .text

    init(_ text: String, _ style: CellStyle = .text) {
        self.text = text
        self.style = style
    }
}

extension ScreenBuffer {
    /// Draws one table row from `point` within `width` cells: each cell padded or truncated
    /// with `…` to its column (or to what is left of `width`). `rowStyle`, when given, overrides every cell's style (the
    /// selection) and fills the gaps.
    mutating func drawTableRow(
        _ cells: [TableCell], columns: [TableColumn], widths: [Int], at point: Point, width: Int,
        rowStyle: CellStyle? = nil
    ) {
        fill(Rect(column: point.column, row: point.row, columns: width, rows: 1), style: rowStyle ?? .text)
        var column = point.column
        let end = point.column + width
        for (index, cell) in cells.enumerated() where index < widths.count && column < end {
            // A column the width cuts short ends with `…`, never mid-word.
            let text = TerminalText.pad(
                cell.text, toWidth: min(widths[index], end - column), alignment: columns[index].alignment)
            put(text, at: Point(column: column, row: point.row), style: rowStyle ?? cell.style, maxWidth: end - column)
            column += widths[index] + 1
        }
    }

    /// Draws the heading row of `columns` in the title style, marking column `sorted` with
    /// an arrow (▲ ascending, ▼ descending; `^`/`v` in ASCII).
    mutating func drawTableHeader(
        _ columns: [TableColumn], widths: [Int], at point: Point, width: Int,
        sorted: (index: Int, descending: Bool)? = nil, glyphs: GlyphSet
    ) {
        let cells = columns.enumerated().map { index, column in
            guard let sorted, sorted.index == index else { return TableCell(column.title, CellStyle(.muted)) }
            let arrow = glyphs == .unicode ? (sorted.descending ? "▼" : "▲") : (sorted.descending ? "v" : "^")
            return TableCell(column.title + " " + arrow, CellStyle(.title))
        }
        drawTableRow(cells, columns: columns, widths: widths, at: point, width: width)
    }
}
