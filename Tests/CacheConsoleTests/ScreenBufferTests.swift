import CacheConsole
import TerminalUI
import Testing

@Suite struct ScreenBufferTests {
    private func buffer(_ columns: Int, _ rows: Int = 1) -> ScreenBuffer {
        ScreenBuffer(size: Size(columns: columns, rows: rows))
    }

    @Test func snapshotsTrimTrailingSpacesAndKeepEveryRow() {
        var screen = buffer(10, 3)
        screen.put("top", at: Point(column: 0, row: 0))
        screen.put("end", at: Point(column: 7, row: 2))
        #expect(screen.textSnapshot() == "top\n\n       end")
    }

    @Test func wideGraphemesTakeACellAndAContinuation() {
        var screen = buffer(6)
        let end = screen.put("a界b", at: Point(column: 0, row: 0))
        #expect(end == 4)
        #expect(screen.textSnapshot() == "a界b")
        #expect(screen[Point(column: 1, row: 0)]?.width == 2)
        #expect(screen[Point(column: 2, row: 0)]?.isContinuation == true)
        #expect(screen[Point(column: 3, row: 0)]?.text == "b")
        #expect(screen[Point(column: 6, row: 0)] == nil)
    }

    @Test func textIsClippedByMaxWidthAndTheEdge() {
        var screen = buffer(10, 2)
        screen.put("hello world", at: Point(column: 0, row: 0), maxWidth: 5)
        let end = screen.put("clipped", at: Point(column: 7, row: 1))
        #expect(screen.textSnapshot() == "hello\n       cli")
        #expect(end == 10)
        #expect(screen.put("x", at: Point(column: 0, row: 5)) == 0)
    }

    @Test func aWideGraphemeThatWouldStraddleTheLimitLeavesASpace() {
        var screen = buffer(6)
        screen.put("xxxxxx", at: Point(column: 0, row: 0))
        let end = screen.put("ab界", at: Point(column: 0, row: 0), maxWidth: 3)
        #expect(end == 3)
        #expect(screen.textSnapshot() == "ab xxx")
        var edge = buffer(3)
        edge.put("ab界", at: Point(column: 0, row: 0))
        #expect(edge.textSnapshot() == "ab")
        #expect(edge[Point(column: 2, row: 0)]?.text == " ")
    }

    @Test func ellipsisTruncationEndsWithTheMarker() {
        var screen = buffer(20)
        screen.put("hello world", at: Point(column: 2, row: 0), maxWidth: 8, truncation: .ellipsis("…"))
        #expect(screen.textSnapshot() == "  hello w…")
    }

    @Test func overwritingHalfOfAWideGraphemeBlanksTheOtherHalf() {
        var screen = buffer(4)
        screen.put("界界", at: Point(column: 0, row: 0))
        screen.put("x", at: Point(column: 1, row: 0))
        screen.put("y", at: Point(column: 2, row: 0))
        #expect(screen.textSnapshot() == " xy")
        #expect(screen[Point(column: 3, row: 0)]?.isContinuation == false)
        screen.put("界", at: Point(column: 1, row: 0))
        #expect(screen.textSnapshot() == " 界")
        screen.put("ab", at: Point(column: 0, row: 0))
        #expect(screen.textSnapshot() == "ab")
    }

    @Test func textStartingLeftOfTheBufferIsClipped() {
        var screen = buffer(6)
        screen.put("界abc", at: Point(column: -1, row: 0))
        #expect(screen.textSnapshot() == " abc")
        screen.put("xyz", at: Point(column: -2, row: 0))
        #expect(screen.textSnapshot() == "zabc")
    }

    @Test func controlCharactersAreWrittenAsVisibleEscapes() {
        var screen = buffer(30)
        screen.put("k\u{1B}[2J\u{202E}", at: Point(column: 0, row: 0))
        #expect(screen.textSnapshot() == "k\\e[2J\\u{202E}")
        for cell in screen.cells(inRow: 0) {
            #expect(cell.text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F })
        }
    }

    @Test func fillCoversTheClippedRectangleWithOneCellCharacters() {
        var screen = buffer(5, 3)
        screen.fill(Rect(column: 3, row: -1, columns: 9, rows: 3), with: "#")
        screen.fill(Rect(column: 0, row: 2, columns: 2, rows: 1), with: "界")
        #expect(screen.textSnapshot() == "   ##\n   ##\n")
        #expect(screen[Point(column: 0, row: 2)]?.text == " ")
        screen.fill(Rect(column: 2, row: 1, columns: 0, rows: 5), with: "x")
        #expect(screen.textSnapshot() == "   ##\n   ##\n")
    }

    @Test func cellsCarryTheirStyle() {
        var screen = buffer(4)
        screen.put("ab", at: Point(column: 1, row: 0), style: CellStyle(.selection, .bold))
        #expect(screen[Point(column: 0, row: 0)]?.style == .text)
        #expect(screen[Point(column: 1, row: 0)]?.style == CellStyle(.selection, .bold))
    }

    @Test func boxesDrawBordersAndATruncatedTitle() {
        var screen = buffer(14, 4)
        screen.drawBox(Rect(column: 0, row: 0, columns: 14, rows: 4), title: "Namespaces and more")
        screen.put("inside", at: Point(column: 2, row: 1))
        #expect(
            screen.textSnapshot() == """
                ┌─ Namespac… ┐
                │ inside     │
                │            │
                └────────────┘
                """)
        var ascii = buffer(6, 3)
        ascii.drawBox(Rect(column: 0, row: 0, columns: 6, rows: 3), border: .ascii)
        #expect(ascii.textSnapshot() == "+----+\n|    |\n+----+")
        var tiny = buffer(3, 3)
        tiny.drawBox(Rect(column: 1, row: 1, columns: 1, rows: 1))
        #expect(tiny.textSnapshot() == "\n\n")
    }

    @Test func rulesRunHorizontallyAndVertically() {
        var screen = buffer(4, 3)
        screen.drawHorizontalLine(from: Point(column: 0, row: 0), width: 4, border: .double)
        screen.drawVerticalLine(from: Point(column: 1, row: 1), height: 2, border: .heavy)
        #expect(screen.textSnapshot() == "════\n ┃\n ┃")
    }

    @Test func wholeScreensCompareAsSnapshots() {
        var screen = buffer(24, 5)
        screen.fill(Rect(column: 0, row: 0, columns: 24, rows: 1), style: CellStyle(.header))
        screen.put("cachedeck › lego", at: Point(column: 1, row: 0), style: CellStyle(.breadcrumb))
        screen.drawBox(Rect(column: 0, row: 1, columns: 24, rows: 3), border: .rounded, title: "sets")
        screen.put(TerminalText.pad("10294-1\u{1B}", toWidth: 10), at: Point(column: 2, row: 2))
        screen.drawBar(at: Point(column: 13, row: 2), width: 8, fraction: 0.5)
        screen.put("q quit", at: Point(column: 0, row: 4), style: CellStyle(.keyHint))
        #expect(
            screen.textSnapshot() == """
                 cachedeck › lego
                ╭─ sets ───────────────╮
                │ 10294-1\\e  ████      │
                ╰──────────────────────╯
                q quit
                """)
    }
}
