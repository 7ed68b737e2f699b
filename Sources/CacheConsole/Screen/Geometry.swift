/// A cell position: column 0 is the left edge, row 0 the top.
public struct Point: Hashable, Sendable {
    /// The column, counted from 0 at the left.
    public var column: Int
    /// The row, counted from 0 at the top.
    public var row: Int

    /// The cell at `column`, `row`.
    public init(column: Int, row: Int) {
        self.column = column
        self.row = row
    }
}

/// A size in terminal cells.
public struct Size: Hashable, Sendable {
    /// Width in cells.
    public var columns: Int
    /// Height in cells.
    public var rows: Int

    /// A size of `columns` × `rows` cells; negative values count as 0.
    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }
}

/// A rectangle of cells.
public struct Rect: Hashable, Sendable {
    /// The top-left cell.
    public var origin: Point
    /// Width and height.
    public var size: Size

    /// The rectangle whose top-left cell is `origin`.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// The rectangle at `column`, `row` of `columns` × `rows` cells.
    public init(column: Int, row: Int, columns: Int, rows: Int) {
        self.init(origin: Point(column: column, row: row), size: Size(columns: columns, rows: rows))
    }

    /// The first column.
    public var minColumn: Int { origin.column }
    /// The column just past the right edge.
    public var maxColumn: Int { origin.column + size.columns }
    /// The first row.
    public var minRow: Int { origin.row }
    /// The row just past the bottom edge.
    public var maxRow: Int { origin.row + size.rows }
    /// Whether the rectangle holds no cell.
    public var isEmpty: Bool { size.columns == 0 || size.rows == 0 }

    /// The rectangle shrunk by `amount` cells on every side (empty when nothing is left).
    public func insetBy(_ amount: Int) -> Rect {
        Rect(
            column: origin.column + amount, row: origin.row + amount,
            columns: size.columns - 2 * amount, rows: size.rows - 2 * amount)
    }

    /// The cells both rectangles hold (empty, at this rectangle's origin, when none).
    public func intersection(_ other: Rect) -> Rect {
        let column = max(minColumn, other.minColumn)
        let row = max(minRow, other.minRow)
        let columns = min(maxColumn, other.maxColumn) - column
        let rows = min(maxRow, other.maxRow) - row
        guard columns > 0 && rows > 0 else { return Rect(origin: origin, size: Size(columns: 0, rows: 0)) }
        return Rect(column: column, row: row, columns: columns, rows: rows)
    }

    /// Whether `point` lies inside.
    public func contains(_ point: Point) -> Bool {
        (minColumn..<maxColumn).contains(point.column) && (minRow..<maxRow).contains(point.row)
    }
}
