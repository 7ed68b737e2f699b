import TerminalUI
/// What the console shows below ``ConsoleLayout/minimumSize``.
enum TooSmallScreen {
    static func draw(size: Size, into buffer: inout ScreenBuffer) {
        let minimum = ConsoleLayout.minimumSize
        let lines = [
            "Terminal too small",
            "\(size.columns)×\(size.rows); needs \(minimum.columns)×\(minimum.rows)",
            "Enlarge the window, or q to quit",
        ]
        let top = max(0, (size.rows - lines.count) / 2)
        for (offset, line) in lines.enumerated() {
            let text = TerminalText.pad(line, toWidth: size.columns, alignment: .center)
            buffer.put(text, at: Point(column: 0, row: top + offset), style: CellStyle(offset == 0 ? .warn : .muted))
        }
    }
}
