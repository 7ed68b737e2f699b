import Testing

@testable import CacheConsole

extension ConsoleHarness {
    /// The text of the rows drawn in `role` somewhere (the selection, a changed value …),
    /// trimmed: what a text snapshot cannot show.
    func rows(styled role: StyleRole) -> [String] {
        let buffer = controller.render()
        return (0..<buffer.size.rows).compactMap { row in
            let cells = buffer.cells(inRow: row)
            guard cells.contains(where: { $0.style.role == role }) else { return nil }
            return cells.map(\.text).joined().trimmingCharacters(in: .whitespaces)
        }
    }

    /// The texts drawn in `role`, run by run.
    func texts(styled role: StyleRole) -> [String] {
        let buffer = controller.render()
        var runs: [String] = []
        for row in 0..<buffer.size.rows {
            var current = ""
            for cell in buffer.cells(inRow: row) {
                if cell.style.role == role {
                    current += cell.text
                } else if !current.isEmpty {
                    runs.append(current.trimmingCharacters(in: .whitespaces))
                    current = ""
                }
            }
            if !current.isEmpty { runs.append(current.trimmingCharacters(in: .whitespaces)) }
        }
        return runs.filter { !$0.isEmpty }
    }
}

/// Checks the whole screen against `expected`.
func expectScreen<Source>(
    _ harness: ConsoleHarness<Source>, _ expected: String, glyphs: GlyphSet = .unicode,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let actual = harness.screen(glyphs: glyphs)
    #expect(actual == expected, sourceLocation: sourceLocation)
}
