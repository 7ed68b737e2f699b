/// How a multi-row graph draws its values.
package enum GraphFill: Hashable, Sendable {
    /// A line through the values, joined vertically between neighbours.
    case line
    /// The area under the values.
    case area
}

extension ScreenBuffer {
    /// Draws `values` as a graph filling `rect`, newest on the right, scaled to `range`
    /// (default: 0 through the largest value). Unicode graphs use braille patterns: two values
    /// per cell across and four dots per cell down. ASCII graphs show one value per column with
    /// `#` for whole cells and `:` / `.` for the top partial cell (`*` for a line). Rows take
    /// the roles `roles` gives their height (0 bottom, 1 top; the graph gradient by default);
    /// empty cells are spaces in `background`.
    package mutating func drawGraph(
        _ values: [Double], in rect: Rect, range: ClosedRange<Double>? = nil, fill mode: GraphFill = .area,
        background: CellStyle = .text, roles: (Double) -> StyleRole = StyleRole.graph(at:), glyphs: GlyphSet = .unicode
    ) {
        guard !rect.isEmpty else { return }
        let perCell = glyphs == .unicode ? 2 : 1
        let shown = Array(values.suffix(rect.size.columns * perCell))
        let scale = GraphScale.range(range, for: shown)
        let firstColumn = rect.size.columns * perCell - shown.count
        fill(rect, style: background)
        switch glyphs {
        case .unicode:
            var dots = BrailleCanvas(size: rect.size)
            var previous: Int?
            for (offset, value) in shown.enumerated() {
                guard let fraction = GraphScale.fraction(value, in: scale) else {
                    previous = nil
                    continue
                }
                let height = Int((fraction * Double(dots.dotRows)).rounded())
                let column = firstColumn + offset
                switch mode {
                case .area:
                    for level in 0..<height { dots.set(column: column, level: level) }
                case .line:
                    let level = max(0, height - 1)
                    let from = min(level, previous ?? level)
                    let through = max(level, previous ?? level)
                    for joined in from...through { dots.set(column: column, level: joined) }
                    previous = level
                }
            }
            for row in 0..<rect.size.rows {
                let style = CellStyle(roles(Double(rect.size.rows - row) / Double(rect.size.rows)))
                for column in 0..<rect.size.columns {
                    guard let glyph = dots.glyph(column: column, row: row) else { continue }
                    put(glyph, at: Point(column: rect.minColumn + column, row: rect.minRow + row), style: style)
                }
            }
        case .ascii:
            for (offset, value) in shown.enumerated() {
                guard let fraction = GraphScale.fraction(value, in: scale) else { continue }
                let height = fraction * Double(rect.size.rows)
                for level in 0..<rect.size.rows {
                    let cover = height - Double(level)
                    let glyph: String
                    switch mode {
                    case .area: glyph = cover >= 1 ? "#" : cover > 0.5 ? ":" : cover > 0 ? "." : " "
                    case .line: glyph = cover > 0 && cover <= 1 || level == 0 && height == 0 ? "*" : " "
                    }
                    guard glyph != " " else { continue }
                    let style = CellStyle(roles(Double(level + 1) / Double(rect.size.rows)))
                    put(
                        glyph, at: Point(column: rect.minColumn + firstColumn + offset, row: rect.maxRow - 1 - level),
                        style: style)
                }
            }
        }
    }
}

/// Braille dots over a grid of cells: 2 across and 4 down per cell, level 0 at the bottom.
private struct BrailleCanvas {
    let size: Size
    private var bits: [UInt8]

    init(size: Size) {
        self.size = size
        bits = Array(repeating: 0, count: size.columns * size.rows)
    }

    /// Dot rows from bottom to top.
    var dotRows: Int { size.rows * 4 }

    /// Lights the dot in dot column `column` at height `level` (0 = bottom).
    mutating func set(column: Int, level: Int) {
        let fromTop = dotRows - 1 - level
        guard (0..<size.columns * 2).contains(column), (0..<dotRows).contains(fromTop) else { return }
        let masks: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]
        bits[(fromTop / 4) * size.columns + column / 2] |= masks[column % 2][fromTop % 4]
    }

    /// The braille pattern of a cell, or `nil` when none of its dots is lit.
    func glyph(column: Int, row: Int) -> String? {
        let value = bits[row * size.columns + column]
        guard value != 0, let scalar = Unicode.Scalar(0x2800 + UInt32(value)) else { return nil }
        return String(Character(scalar))
    }
}
