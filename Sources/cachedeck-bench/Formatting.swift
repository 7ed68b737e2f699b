import Foundation

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

    /// `1234567` → `1,234,567`.
    private static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        return digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index).isMultiple(of: 3) ? ",\(digit)" : "\(digit)"
        }.joined()
    }
}
