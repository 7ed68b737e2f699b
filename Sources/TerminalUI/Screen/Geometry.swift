/// A cell position: column 0 is the left edge, row 0 the top.
package struct Point: Hashable, Sendable {
    /// The column, counted from 0 at the left.
    package var column: Int
    /// The row, counted from 0 at the top.
    package var row: Int

    /// The cell at `column`, `row`.
    package init(column: Int, row: Int) {
        self.column = column
        self.row = row
    }
}

/// A size in terminal cells.
package struct Size: Hashable, Sendable {
    /// Width in cells.
    package var columns: Int
    /// Height in cells.
    package var rows: Int

    /// A size of `columns` × `rows` cells; negative values count as 0.
    package init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }
}

/// A rectangle of cells.
package struct Rect: Hashable, Sendable {
    /// The top-left cell.
    package var origin: Point
    /// Width and height.
    package var size: Size

    /// The rectangle whose top-left cell is `origin`.
    package init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// The rectangle at `column`, `row` of `columns` × `rows` cells.
    package init(column: Int, row: Int, columns: Int, rows: Int) {
        self.init(origin: Point(column: column, row: row), size: Size(columns: columns, rows: rows))
    }

    /// The first column.
    package var minColumn: Int { origin.column }
    /// The column just past the right edge.
    package var maxColumn: Int { origin.column + size.columns }
    /// The first row.
    package var minRow: Int { origin.row }
    /// The row just past the bottom edge.
    package var maxRow: Int { origin.row + size.rows }
    /// Whether the rectangle holds no cell.
    package var isEmpty: Bool { size.columns == 0 || size.rows == 0 }

    /// The rectangle shrunk by `amount` cells on every side (empty when nothing is left).
    package func insetBy(_ amount: Int) -> Rect {
        Rect(
            column: origin.column + amount, row: origin.row + amount,
            columns: size.columns - 2 * amount, rows: size.rows - 2 * amount)
    }

    /// The cells both rectangles hold (empty, at this rectangle's origin, when none).
    package func intersection(_ other: Rect) -> Rect {
        let column = max(minColumn, other.minColumn)
        let row = max(minRow, other.minRow)
        let columns = min(maxColumn, other.maxColumn) - column
        let rows = min(maxRow, other.maxRow) - row
        guard columns > 0 && rows > 0 else { return Rect(origin: origin, size: Size(columns: 0, rows: 0)) }
        return Rect(column: column, row: row, columns: columns, rows: rows)
    }

    /// Whether `point` lies inside.
    package func contains(_ point: Point) -> Bool {
        (minColumn..<maxColumn).contains(point.column) && (minRow..<maxRow).contains(point.row)
    }
}
