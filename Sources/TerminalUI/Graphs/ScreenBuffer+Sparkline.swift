extension ScreenBuffer {
    /// Draws `values` as a one-row sparkline `width` cells wide at `point`, newest on the
    /// right (only the last `width` values show; fewer leave blanks on the left). Heights
    /// are scaled to `range` (default: 0 through the largest value) in eight steps: `▁`…`█`,
    /// or `_.-~=+*#` in ASCII. Each cell takes the role `roles` gives its height (0–1; the
    /// graph gradient by default) unless `style` is given. A value that is not finite leaves
    /// a blank.
    package mutating func drawSparkline(
        _ values: [Double], at point: Point, width: Int, range: ClosedRange<Double>? = nil,
        style: CellStyle? = nil, roles: (Double) -> StyleRole = StyleRole.graph(at:), glyphs: GlyphSet = .unicode
    ) {
        guard width > 0 else { return }
        let levels: [String] =
            switch glyphs {
            case .unicode: ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
            case .ascii: ["_", ".", "-", "~", "=", "+", "*", "#"]
            }
        let shown = values.suffix(width)
        let scale = GraphScale.range(range, for: Array(shown))
        let start = point.column + width - shown.count
        fill(Rect(column: point.column, row: point.row, columns: width - shown.count, rows: 1), style: style ?? .text)
        for (offset, value) in shown.enumerated() {
            let column = Point(column: start + offset, row: point.row)
            guard let fraction = GraphScale.fraction(value, in: scale) else {
                put(" ", at: column, style: style ?? .text)
                continue
            }
            let level = Int((fraction * Double(levels.count - 1)).rounded())
            put(levels[level], at: column, style: style ?? CellStyle(roles(fraction)))
        }
    }
}
