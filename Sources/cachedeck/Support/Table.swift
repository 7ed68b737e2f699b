import CacheConsole
import TerminalUI

/// A plain-text table with aligned columns. A column of figures (every cell a number with an
/// optional unit, or the placeholder `—`) aligns right, header included; the others, and `textColumns` whatever they hold, align left. Cells are
/// sanitized for the terminal.
struct Table {
    let headers: [String]
    let rows: [[String]]
    var textColumns: Set<Int> = []

    var rendered: String {
        let safeRows = rows.map { $0.map { TerminalText.sanitize($0) } }
        let widths = headers.indices.map { column in
            ([headers] + safeRows).map { TerminalText.displayWidth(of: $0[column]) }.max() ?? 0
        }
        let numeric = headers.indices.map { column in
            guard !textColumns.contains(column) else { return false }
            let cells = safeRows.map { $0[column] }.filter { $0 != Self.none }
            return !cells.isEmpty && cells.allSatisfy(Self.isNumber)
        }
        func line(_ cells: [String]) -> String {
            let padded = cells.indices.map { column in
                let cell = cells[column]
                let padding = String(repeating: " ", count: widths[column] - TerminalText.displayWidth(of: cell))
                return numeric[column] ? padding + cell : cell + padding
            }
            return String(padded.joined(separator: "  ").reversed().drop { $0 == " " }.reversed())
        }
        if safeRows.isEmpty { return line(headers) + "\n(none)" }
        return ([line(headers)] + safeRows.map(line)).joined(separator: "\n")
    }

    /// A figure with an optional sign, `~` or `≥`, and unit: `1,234`, `-3`, `12.5`, `87.2%`, `1.2 kB`,
    /// `~3.4 MB`, `24h`, `+5h`; not a date, a key or a relative time.
    private static func isNumber(_ cell: String) -> Bool {
        var rest = Substring(cell)
        if let first = rest.first, "~+-≥".contains(first) { rest = rest.dropFirst() }
        guard rest.first?.isASCIIDigit == true else { return false }
        rest = rest.drop { $0.isASCIIDigit || $0 == "," || $0 == "." }
        if rest.first == " " {
            rest = rest.dropFirst()
            if rest.isEmpty { return false }
        }
        return rest.allSatisfy { ($0.isASCII && $0.isLetter) || $0 == "%" }
    }

    /// The placeholder for a missing value.
    static let none = "–"
}

/// A table printed a row at a time, as rows arrive (a scan): columns have fixed widths (a
/// longer cell pushes the rest of its row), `rightAligned` ones align right. Cells are
/// sanitized for the terminal.
struct StreamedTable {
    let headers: [String]
    let widths: [Int]
    let rightAligned: Set<Int>

    /// The header line.
    var header: String { line(headers) }

    /// One row as a line.
    func line(_ cells: [String]) -> String {
        let padded = cells.indices.map { column in
            let cell = TerminalText.sanitize(cells[column])
            let width = column < widths.count ? widths[column] : 0
            let padding = String(repeating: " ", count: max(0, width - TerminalText.displayWidth(of: cell)))
            return rightAligned.contains(column) ? padding + cell : cell + padding
        }
        return String(padded.joined(separator: "  ").reversed().drop { $0 == " " }.reversed())
    }
}

/// Labelled lines (`Label   value`), labels padded to one width; values are sanitized.
struct Fields {
    let items: [(label: String, value: String)]

    var rendered: String {
        let width = items.map(\.label.count).max() ?? 0
        return items.map { item in
            item.label.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + TerminalText.sanitize(item.value)
        }.joined(separator: "\n")
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
