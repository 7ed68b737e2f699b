/// A grid of cells that screens render into and the terminal draws (by diffing against the
/// previous frame). Everything written is sanitized (see ``TerminalText``) and clipped by
/// display width; a wide grapheme takes its cell and a continuation cell to its right, and
/// overwriting either half of one blanks the other half, so the grid is always drawable.
package struct ScreenBuffer: Hashable, Sendable {
    /// How text that does not fit its width ends.
    package enum Truncation: Hashable, Sendable {
        /// Cut at the edge.
        case clip
        /// Cut and end with this marker (such as `…`).
        case ellipsis(String)
    }

    /// Width and height in cells.
    package let size: Size
    private var cells: [Cell]
    /// Where the terminal shows its cursor (a text field being edited), if anywhere.
    package var cursor: Point?

    /// A buffer of `size` filled with spaces in `style`.
    package init(size: Size, style: CellStyle = .text) {
        self.size = size
        cells = Array(repeating: .blank(style), count: size.columns * size.rows)
    }

    /// The whole buffer as a rectangle.
    package var bounds: Rect { Rect(origin: Point(column: 0, row: 0), size: size) }

    /// The cell at `point`, or `nil` outside the buffer.
    package subscript(point: Point) -> Cell? {
        guard bounds.contains(point) else { return nil }
        return cells[point.row * size.columns + point.column]
    }

    /// The cells of `row` (empty outside the buffer).
    package func cells(inRow row: Int) -> ArraySlice<Cell> {
        guard (0..<size.rows).contains(row) else { return [] }
        return cells[row * size.columns..<(row + 1) * size.columns]
    }

    /// Writes `text` from `point` rightwards in `style`, sanitized, within `maxWidth` cells
    /// (and the buffer's edge); text that does not fit is clipped or truncated. A wide
    /// grapheme that would straddle the limit leaves a space instead.
    ///
    /// - Returns: the column just past the written text.
    @discardableResult
    package mutating func put(
        _ text: String, at point: Point, style: CellStyle = .text, maxWidth: Int? = nil,
        truncation: Truncation = .clip
    ) -> Int {
        guard (0..<size.rows).contains(point.row) else { return point.column }
        let limit = maxWidth.map { point.column + max(0, $0) } ?? Int.max
        var writer = RowWriter(row: point.row, column: point.column, end: min(size.columns, limit), style: style)
        var source = text
        if case .ellipsis(let marker) = truncation {
            source = TerminalText.fit(text, width: writer.end - point.column, ellipsis: marker).text
        }
        DisplayScanner.scan(source) { unit in
            guard unit.isEscape else { return writer.place(unit.text, width: unit.width, into: &self) }
            return unit.text.allSatisfy { writer.place(String($0), width: 1, into: &self) }
        }
        return writer.column
    }

    /// Fills the part of `rect` inside the buffer with `character` in `style`; a character
    /// that is not one printable cell wide fills with spaces instead.
    package mutating func fill(_ rect: Rect, style: CellStyle = .text, with character: Character = " ") {
        var glyph = " "
        DisplayScanner.scan(String(character)) { unit in
            if !unit.isEscape && unit.width == 1 { glyph = unit.text }
            return false
        }
        let cell = Cell(text: glyph, style: style, width: 1)
        let area = bounds.intersection(rect)
        for row in area.minRow..<area.maxRow {
            for column in area.minColumn..<area.maxColumn { set(cell, column: column, row: row) }
        }
    }

    /// The text of every row, one line per row with trailing spaces removed: what a test
    /// compares against an expected screen.
    package func textSnapshot() -> String {
        (0..<size.rows).map { row in
            var line = cells(inRow: row).map(\.text).joined()
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// Stores `cell`, blanking the other half of any wide grapheme it splits.
    mutating func set(_ cell: Cell, column: Int, row: Int) {
        let index = row * size.columns + column
        let old = cells[index]
        if old.isContinuation && column > 0 && !cell.isContinuation {
            cells[index - 1] = .blank(cells[index - 1].style)
        }
        if old.width == 2 && column + 1 < size.columns {
            cells[index + 1] = .blank(cells[index + 1].style)
        }
        cells[index] = cell
    }
}

/// Places graphemes left to right along one row, clipping at both edges.
private struct RowWriter {
    let row: Int
    var column: Int
    let end: Int
    let style: CellStyle

    /// Places one grapheme of `width` cells; `false` once the row is full.
    mutating func place(_ text: String, width: Int, into buffer: inout ScreenBuffer) -> Bool {
        guard column < end else { return false }
        guard column + width <= end else {
            for index in max(0, column)..<end { buffer.set(.blank(style), column: index, row: row) }
            column = end
            return false
        }
        if column >= 0 {
            buffer.set(Cell(text: text, style: style, width: width), column: column, row: row)
            if width == 2 { buffer.set(.continuation(style), column: column + 1, row: row) }
        } else {
            for index in 0..<max(0, column + width) { buffer.set(.blank(style), column: index, row: row) }
        }
        column += width
        return true
    }
}
