import CacheConsole

/// A plain-text table with aligned columns; numbers (cells starting with a digit) align right.
struct Table {
    let headers: [String]
    let rows: [[String]]

    var rendered: String {
        let safeRows = rows.map { $0.map { TerminalText.sanitize($0) } }
        let widths = headers.indices.map { column in
            ([headers] + safeRows).map { TerminalText.displayWidth(of: $0[column]) }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.indices.map { column in
                let cell = cells[column]
                let padding = String(repeating: " ", count: widths[column] - TerminalText.displayWidth(of: cell))
                let numeric = cell.first.map { $0.isNumber } ?? false
                return numeric ? padding + cell : cell + padding
            }.joined(separator: "  ")
        }
        if safeRows.isEmpty { return line(headers) + "\n(none)" }
        return ([line(headers)] + safeRows.map(line)).joined(separator: "\n")
    }
}
