import TerminalUI
import Foundation

/// Numbers as people read them: `2,500`, `1.2 MB`.
package enum Formatting {
    /// `1234567` → `1,234,567`.
    package static func count(_ value: Int) -> String {
        let digits = Array(String(value.magnitude))
        let grouped = digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index).isMultiple(of: 3) ? ",\(digit)" : "\(digit)"
        }.joined()
        return value < 0 ? "-" + grouped : grouped
    }

    /// A count of entries: `1 entry`, `2,500 entries`.
    package static func entries(_ value: Int) -> String {
        value == 1 ? "1 entry" : "\(count(value)) entries"
    }

    /// A count of namespaces: `1 namespace`, `12 namespaces`.
    package static func namespaces(_ value: Int) -> String {
        value == 1 ? "1 namespace" : "\(count(value)) namespaces"
    }

    /// Bytes in decimal units: `512 B`, `1.2 kB`, `3.4 MB`, `1.0 GB`.
    package static func bytes(_ value: Int) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var amount = Double(value)
        var unit = 0
        while amount >= 1000 && unit < units.count - 1 {
            amount /= 1000
            unit += 1
        }
        return unit == 0 ? "\(value) B" : String(format: "%.1f %@", amount, units[unit])
    }
}
