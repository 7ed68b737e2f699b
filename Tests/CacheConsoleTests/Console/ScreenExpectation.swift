import Testing

@testable import CacheConsole
import TerminalUI

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

/// Checks the whole screen against `expected`; a mismatch lists the rows that differ.
func expectScreen<Source>(
    _ harness: ConsoleHarness<Source>, _ expected: String, glyphs: GlyphSet = .unicode,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let actual = harness.screen(glyphs: glyphs)
    guard actual != expected else { return }
    Issue.record(
        Comment(rawValue: screenDifference(expected: expected, actual: actual)), sourceLocation: sourceLocation)
}

/// The rows of two screens that differ, numbered, expected above actual.
func screenDifference(expected: String, actual: String) -> String {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var lines = ["The screen differs in these rows (- expected, + actual):"]
    for row in 0..<max(old.count, new.count) {
        let before = row < old.count ? String(old[row]) : "(no row)"
        let after = row < new.count ? String(new[row]) : "(no row)"
        guard before != after else { continue }
        lines.append(String(format: "%3d - ", row) + before)
        lines.append(String(format: "%3d + ", row) + after)
    }
    return lines.joined(separator: "\n")
}
