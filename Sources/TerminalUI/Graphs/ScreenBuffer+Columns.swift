extension ScreenBuffer {
    /// Draws `values` as vertical bars filling `rect` from the bottom, one every `spacing`
    /// cells (a bar fills all but the last cell of its spacing when that is more than one),
    /// scaled to the largest value. Unicode bars
    /// resolve eighths of a cell (`▁`…`█`); ASCII bars whole cells (`#`). Bars take the graph
    /// gradient roles by height.
    package mutating func drawColumns(
        _ values: [Double], in rect: Rect, spacing: Int = 1, glyphs: GlyphSet = .unicode
    ) {
        guard !rect.isEmpty, spacing > 0 else { return }
        fill(rect)
        let largest = values.filter(\.isFinite).max() ?? 0
        guard largest > 0 else { return }
        let partials = ["", "▁", "▂", "▃", "▄", "▅", "▆", "▇"]
        let barWidth = spacing > 1 ? spacing - 1 : 1
        for (index, value) in values.enumerated() {
            let left = rect.minColumn + index * spacing
            guard left + barWidth <= rect.maxColumn, value.isFinite, value > 0 else { continue }
            let eighths = max(1, Int((value / largest * Double(rect.size.rows * 8)).rounded()))
            for level in 0..<rect.size.rows {
                let filled = min(8, eighths - level * 8)
                guard filled > 0 else { break }
                let glyph = glyphs == .ascii ? "#" : filled == 8 ? "█" : partials[filled]
                let style = CellStyle(StyleRole.graph(at: Double(level) / Double(rect.size.rows)))
                put(
                    String(repeating: glyph, count: barWidth), at: Point(column: left, row: rect.maxRow - 1 - level),
                    style: style)
            }
        }
    }
}
