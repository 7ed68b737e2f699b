extension ScreenBuffer {
    /// Draws a horizontal bar `width` cells wide at `point`, filled to `fraction` (clamped to
    /// 0...1; not-a-number draws empty). Unicode bars resolve eighths of a cell (`▏`…`█`);
    /// ASCII bars whole cells (`#` on `.`). The track is drawn in `background`; give `style`
    /// the same background colour in a theme so partial cells blend in.
    package mutating func drawBar(
        at point: Point, width: Int, fraction: Double, style: CellStyle = CellStyle(.bar),
        background: CellStyle = CellStyle(.barBackground), glyphs: GlyphSet = .unicode
    ) {
        guard width > 0 else { return }
        let filled = fraction.isFinite ? min(1, max(0, fraction)) : 0
        switch glyphs {
        case .unicode:
            let eighths = Int((filled * Double(width * 8)).rounded())
            let full = eighths / 8
            let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8]
            put(String(repeating: "█", count: full) + partial, at: point, style: style, maxWidth: width)
            let used = full + (partial.isEmpty ? 0 : 1)
            fill(Rect(column: point.column + used, row: point.row, columns: width - used, rows: 1), style: background)
        case .ascii:
            let full = Int((filled * Double(width)).rounded())
            put(String(repeating: "#", count: full), at: point, style: style, maxWidth: width)
            fill(
                Rect(column: point.column + full, row: point.row, columns: width - full, rows: 1), style: background,
                with: ".")
        }
    }
}
