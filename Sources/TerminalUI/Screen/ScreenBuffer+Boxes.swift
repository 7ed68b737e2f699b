/// The line glyphs of a box or rule.
package enum BorderStyle: Hashable, Sendable {
    /// `┌─┐│└┘`
    case light
    /// `╭─╮│╰╯`
    case rounded
    /// `┏━┓┃┗┛`
    case heavy
    /// `╔═╗║╚╝`
    case double
    /// `+-+|++` for terminals without Unicode.
    case ascii

    /// Top-left, horizontal, top-right, vertical, bottom-left, bottom-right.
    var glyphs:
        (
            topLeft: String, horizontal: String, topRight: String, vertical: String, bottomLeft: String,
            bottomRight: String
        )
    {
        switch self {
        case .light: return ("┌", "─", "┐", "│", "└", "┘")
        case .rounded: return ("╭", "─", "╮", "│", "╰", "╯")
        case .heavy: return ("┏", "━", "┓", "┃", "┗", "┛")
        case .double: return ("╔", "═", "╗", "║", "╚", "╝")
        case .ascii: return ("+", "-", "+", "|", "+", "+")
        }
    }
}

extension ScreenBuffer {
    /// Draws the outline of `rect` (at least 2 × 2 cells) and, when given, `title` on its top
    /// edge two cells in, truncated with `…` to fit. The inside is left as it was.
    package mutating func drawBox(
        _ rect: Rect, style: CellStyle = CellStyle(.border), border: BorderStyle = .light,
        title: String? = nil, titleStyle: CellStyle = CellStyle(.title)
    ) {
        guard rect.size.columns >= 2 && rect.size.rows >= 2 else { return }
        let glyphs = border.glyphs
        let right = rect.maxColumn - 1
        let bottom = rect.maxRow - 1
        drawHorizontalLine(
            from: Point(column: rect.minColumn + 1, row: rect.minRow), width: rect.size.columns - 2,
            style: style, border: border)
        drawHorizontalLine(
            from: Point(column: rect.minColumn + 1, row: bottom), width: rect.size.columns - 2,
            style: style, border: border)
        drawVerticalLine(
            from: Point(column: rect.minColumn, row: rect.minRow + 1), height: rect.size.rows - 2,
            style: style, border: border)
        drawVerticalLine(
            from: Point(column: right, row: rect.minRow + 1), height: rect.size.rows - 2,
            style: style, border: border)
        put(glyphs.topLeft, at: rect.origin, style: style)
        put(glyphs.topRight, at: Point(column: right, row: rect.minRow), style: style)
        put(glyphs.bottomLeft, at: Point(column: rect.minColumn, row: bottom), style: style)
        put(glyphs.bottomRight, at: Point(column: right, row: bottom), style: style)
        if let title, rect.size.columns > 5 {
            let text = TerminalText.truncate(title, toWidth: rect.size.columns - 5)
            guard !text.isEmpty else { return }
            put(" " + text + " ", at: Point(column: rect.minColumn + 2, row: rect.minRow), style: titleStyle)
        }
    }

    /// Draws a horizontal rule of `width` cells starting at `point`.
    package mutating func drawHorizontalLine(
        from point: Point, width: Int, style: CellStyle = CellStyle(.border), border: BorderStyle = .light
    ) {
        guard width > 0 else { return }
        put(String(repeating: border.glyphs.horizontal, count: width), at: point, style: style, maxWidth: width)
    }

    /// Draws a vertical rule of `height` cells starting at `point` and going down.
    package mutating func drawVerticalLine(
        from point: Point, height: Int, style: CellStyle = CellStyle(.border), border: BorderStyle = .light
    ) {
        guard height > 0 else { return }
        for row in point.row..<point.row + height {
            put(border.glyphs.vertical, at: Point(column: point.column, row: row), style: style)
        }
    }
}
