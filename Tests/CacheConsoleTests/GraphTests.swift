import CacheConsole
import TerminalUI
import Testing

@Suite struct GraphTests {
    @Test func barsResolveEighthsOfACell() {
        var screen = ScreenBuffer(size: Size(columns: 10, rows: 4))
        screen.drawBar(at: Point(column: 0, row: 0), width: 10, fraction: 0.55)
        screen.drawBar(at: Point(column: 0, row: 1), width: 10, fraction: 0.55, glyphs: .ascii)
        screen.drawBar(at: Point(column: 0, row: 2), width: 4, fraction: 7)
        screen.drawBar(at: Point(column: 0, row: 3), width: 4, fraction: .nan, glyphs: .ascii)
        #expect(screen.textSnapshot() == "█████▌\n######....\n████\n....")
        #expect(screen[Point(column: 0, row: 0)]?.style == CellStyle(.bar))
        #expect(screen[Point(column: 9, row: 0)]?.style == CellStyle(.barBackground))
    }

    @Test func sparklinesShowTheNewestValuesOnTheRight() {
        var screen = ScreenBuffer(size: Size(columns: 10, rows: 3))
        let rising = (0..<8).map(Double.init)
        screen.drawSparkline(rising, at: Point(column: 0, row: 0), width: 8)
        screen.drawSparkline(rising, at: Point(column: 0, row: 1), width: 8, glyphs: .ascii)
        screen.drawSparkline([7, .nan, 0], at: Point(column: 0, row: 2), width: 5, range: 0...7)
        #expect(screen.textSnapshot() == "▁▂▃▄▅▆▇█\n_.-~=+*#\n  █ ▁")
        #expect(screen[Point(column: 0, row: 0)]?.style.role == .graphLow)
        #expect(screen[Point(column: 7, row: 0)]?.style.role == .graphHigh)
        screen.drawSparkline(Array(repeating: 1, count: 20), at: Point(column: 0, row: 0), width: 3, style: .text)
        #expect(screen.textSnapshot().hasPrefix("███▄▅▆▇█\n"))
        #expect(screen[Point(column: 0, row: 0)]?.style == .text)
    }

    @Test func brailleGraphsPackTwoValuesAcrossAndFourDotsDownPerCell() {
        var area = ScreenBuffer(size: Size(columns: 1, rows: 1))
        area.drawGraph([0, 1], in: area.bounds, range: 0...1)
        #expect(area.textSnapshot() == "⢸")
        var line = ScreenBuffer(size: Size(columns: 1, rows: 1))
        line.drawGraph([0, 1], in: line.bounds, range: 0...1, fill: .line)
        #expect(line.textSnapshot() == "⣸")
        var tall = ScreenBuffer(size: Size(columns: 2, rows: 2))
        tall.drawGraph([1, 0.5, 0.25, 0], in: tall.bounds, range: 0...1)
        #expect(tall.textSnapshot() == "⡇\n⣿⡄")
        #expect(tall[Point(column: 0, row: 0)]?.style.role == .graphHigh)
        #expect(tall[Point(column: 0, row: 1)]?.style.role == .graphMid)
    }

    @Test func asciiGraphsUseOneColumnPerValue() {
        var area = ScreenBuffer(size: Size(columns: 4, rows: 2))
        area.drawGraph([1, 0.5, 0.25, 0], in: area.bounds, range: 0...1, glyphs: .ascii)
        #expect(area.textSnapshot() == "#\n##.")
        var line = ScreenBuffer(size: Size(columns: 4, rows: 2))
        line.drawGraph([1, 0.5, 0.25, 0], in: line.bounds, range: 0...1, fill: .line, glyphs: .ascii)
        #expect(line.textSnapshot() == "*\n ***")
    }

    @Test func graphScalesDefaultToZeroThroughTheLargestValue() {
        var screen = ScreenBuffer(size: Size(columns: 3, rows: 1))
        screen.drawSparkline([5, 10, 0], at: Point(column: 0, row: 0), width: 3)
        #expect(screen.textSnapshot() == "▅█▁")
        screen.drawSparkline([0, 0, 0], at: Point(column: 0, row: 0), width: 3)
        #expect(screen.textSnapshot() == "▁▁▁")
    }

    @Test func gradientStepsCoverTheWholeRange() {
        #expect(StyleRole.graph(at: 0) == .graphLow)
        #expect(StyleRole.graph(at: 0.5) == .graphMid)
        #expect(StyleRole.graph(at: 1) == .graphHigh)
        #expect(StyleRole.graph(at: -3) == .graphLow)
        #expect(StyleRole.graph(at: .nan) == .graphLow)
        #expect(StyleRole.graphGradient.count >= 5)
    }
}
