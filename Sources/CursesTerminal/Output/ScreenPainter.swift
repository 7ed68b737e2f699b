import CNCurses
import TerminalUI

/// Draws ``ScreenBuffer``s on the curses screen by difference: only cells that changed since
/// the previous frame are written; the whole screen only after ``invalidate(clearing:)``.
struct ScreenPainter {
    /// Resolves cell styles to attributes and colour pairs.
    var styles: StyleResolver
    /// Whether the locale is UTF-8 (otherwise non-ASCII cells are drawn as their ASCII
    /// fallback, or `?`).
    let unicode: Bool
    private var previous: ScreenBuffer?
    private var clearFirst = false
    private var cursorShown = false

    init(styles: StyleResolver, unicode: Bool) {
        self.styles = styles
        self.unicode = unicode
    }

    /// Forgets the previous frame, so the next one is drawn whole; after a resize or on
    /// request the terminal is cleared first too.
    mutating func invalidate(clearing: Bool) {
        previous = nil
        clearFirst = clearFirst || clearing
    }

    /// Writes the cells of `buffer` that differ from the previous frame (clipped to the screen
    /// of `screen` size) and updates the terminal.
    mutating func paint(_ buffer: ScreenBuffer, screen: Size) {
        if clearFirst {
            clearok(cn_stdscr(), true)
            clearFirst = false
        }
        let base = previous?.size == buffer.size ? previous : nil
        let rows = min(buffer.size.rows, screen.rows)
        let columns = min(buffer.size.columns, screen.columns)
        for row in 0..<rows {
            let cells = buffer.cells(inRow: row)
            let before = base?.cells(inRow: row)
            for column in 0..<columns {
                let cell = cells[cells.startIndex + column]
                if let before, before[before.startIndex + column] == cell { continue }
                if cell.isContinuation { continue }  // drawn with the wide cell to its left
                draw(cell, row: row, column: column, screenColumns: columns)
            }
        }
        previous = buffer
        placeCursor(buffer.cursor, screen: screen)
        wnoutrefresh(cn_stdscr())
        doupdate()
    }

    /// Shows the terminal's cursor at `cursor` (a text field being edited), or hides it.
    private mutating func placeCursor(_ cursor: Point?, screen: Size) {
        let shown = cursor.flatMap { $0.row < screen.rows && $0.column < screen.columns ? $0 : nil }
        if (shown != nil) != cursorShown {
            cursorShown = shown != nil
            leaveok(cn_stdscr(), !cursorShown)
            curs_set(cursorShown ? 1 : 0)
        }
        if let shown { wmove(cn_stdscr(), Int32(shown.row), Int32(shown.column)) }
    }

    /// Draws one cell. Curses measures characters with the C library's `wcwidth`, which may
    /// disagree with CacheConsole's width (emoji sequences, newer characters); whenever it
    /// does, the cell falls back to its first character alone, or to a replacement character,
    /// padded to the cell's width, so that columns never drift.
    private mutating func draw(_ cell: Cell, row: Int, column: Int, screenColumns: Int) {
        let (attributes, pair) = styles.resolve(cell.style)
        guard column + cell.width <= screenColumns else {
            _ = cn_draw_cell(Int32(row), Int32(column), [0x20, 0], attributes, pair)  // a wide cell cut by the edge
            return
        }
        var characters = glyph(for: cell.text, width: cell.width)
        var padding = 0
        if characters == nil {
            let first = cell.text.unicodeScalars.first.map { wchar_t(bitPattern: $0.value) }
            let firstWidth = first.map { unicode ? Int(cn_wcwidth($0)) : -1 } ?? -1
            if let first, (1...cell.width).contains(firstWidth) {
                characters = [first]
                padding = cell.width - firstWidth
            } else if !unicode, cell.width == 1, let ascii = TerminalText.asciiFallback(cell.text)?.asciiValue {
                characters = [wchar_t(ascii)]
            } else {
                characters = [wchar_t(unicode ? 0xFFFD : 0x3F)]
                padding = cell.width - 1
            }
        }
        guard var text = characters else { return }
        text.append(0)
        _ = cn_draw_cell(Int32(row), Int32(column), text, attributes, pair)
        for offset in 0..<padding {
            _ = cn_draw_cell(Int32(row), Int32(column + 1 + offset), [0x20, 0], attributes, pair)
        }
    }

    /// The characters for a cell of `width` when curses agrees on the width: a spacing
    /// character of that width and zero-width ones after it, at most `CCHARW_MAX` in all.
    private func glyph(for text: String, width: Int) -> [wchar_t]? {
        let scalars = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        guard let first = scalars.first, scalars.count <= Int(cn_cell_capacity()),
            unicode || scalars.allSatisfy({ (0x20..<0x7F).contains($0) }),
            cn_wcwidth(first) == width, scalars.dropFirst().allSatisfy({ cn_wcwidth($0) == 0 })
        else { return nil }
        return scalars
    }
}
