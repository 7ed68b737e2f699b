/// One terminal cell.
package struct Cell: Hashable, Sendable {
    /// One grapheme cluster, already terminal-safe; empty for the right half of a wide one.
    package var text: String
    /// How to draw it.
    package var style: CellStyle
    /// Cells the grapheme occupies from here: 1, 2 for a wide one, 0 for the right half of a
    /// wide one (a continuation cell).
    package var width: Int

    /// Whether this is the right half of a wide grapheme drawn in the cell to its left.
    package var isContinuation: Bool { width == 0 }

    /// A space in `style`.
    package static func blank(_ style: CellStyle) -> Cell {
        Cell(text: " ", style: style, width: 1)
    }

    /// The right half of a wide grapheme in `style`.
    static func continuation(_ style: CellStyle) -> Cell {
        Cell(text: "", style: style, width: 0)
    }
}
