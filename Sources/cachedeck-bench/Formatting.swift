import Foundation

/// Prints `line` at once, even when stdout is a pipe (`fflush(nil)` flushes every stream), so
/// a long benchmark shows how far it is.
func progress(_ line: String) {
    print(line)
    fflush(nil)
}

/// Number formats of the table and notes.
enum Format {
    /// Nanoseconds with one decimal below 1 µs, else whole with thousands separators.
    static func nanoseconds(_ value: Double) -> String {
        value < 1000 ? String(format: "%.1f", value) : grouped(Int(value.rounded()))
    }

    /// Operations per second for `nanoseconds` per operation, with thousands separators.
    static func rate(_ nanoseconds: Double) -> String { grouped(Int((1e9 / nanoseconds).rounded())) }

    static func microseconds(_ nanoseconds: Double) -> String { String(format: "%.1f", nanoseconds / 1e3) }

    static func milliseconds(_ nanoseconds: Double) -> String { String(format: "%.0f", nanoseconds / 1e6) }

    static func seconds(_ nanoseconds: Double) -> String { String(format: "%.1f", nanoseconds / 1e9) }

    /// `1M`, `100k`, `1k`, or the plain number.
    static func count(_ value: Int) -> String {
        if value >= 1_000_000 && value.isMultiple(of: 1_000_000) { return "\(value / 1_000_000)M" }
        if value >= 1000 && value.isMultiple(of: 1000) { return "\(value / 1000)k" }
        return "\(value)"
    }

    /// A text table: the header, a rule, the rows and a rule, columns padded to their widest
    /// cell; the columns in `leftAligned` are padded on the right, the others on the left.
    static func table(header: [String], rows: [[String]], leftAligned: Set<Int>) -> [String] {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ values: [String]) -> String {
            values.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - values[column].count)
                return leftAligned.contains(column) ? values[column] + padding : padding + values[column]
            }.joined(separator: "  ")
        }
        let rule = String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))
        return [line(header), rule] + rows.map(line) + [rule]
    }

    /// `1234567` → `1,234,567`.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        return digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index).isMultiple(of: 3) ? ",\(digit)" : "\(digit)"
        }.joined()
    }
}
