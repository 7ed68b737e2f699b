import Testing

/// ``PaneCheck`` itself: it must find what it is there to find.
@Suite struct PaneCheckTests {
    /// A 21 × 4 pane: header, a box with one row (`東京` takes 4 cells), the box's bottom.
    private static func pane(row: String = "東京 \u{1B}[1mok\u{1B}[0m" + String(repeating: " ", count: 12)) -> String {
        let line = String(repeating: "─", count: 19)
        return ["\u{1B}[7m CacheDeck  x.sqlite \u{1B}[0m", "╭" + line + "╮", "│" + row + "│", "╰" + line + "╯"]
            .joined(separator: "\n")
    }

    @Test func aCleanPanePasses() {
        #expect(PaneCheck.problems(in: Self.pane(), columns: 21, rows: 4) == [])
    }

    @Test(arguments: [
        ("東京 \u{1B}[31mok" + String(repeating: " ", count: 12), "a colour reached the terminal"),
        ("東京 \u{1B}]2;t\u{07}ok" + String(repeating: " ", count: 12), "an escape sequence other than SGR"),
        ("東京 o\u{7}k" + String(repeating: " ", count: 12), "holds a control character"),
        ("東京京 ok" + String(repeating: " ", count: 12), "breaks its box"),
        ("東京 ok" + String(repeating: " ", count: 11), "breaks its box"),
    ])
    func aBrokenRowIsFound(row: String, problem: String) {
        let problems = PaneCheck.problems(in: Self.pane(row: row), columns: 21, rows: 4)
        #expect(problems.contains { $0.contains(problem) }, "\(problems)")
    }
}
