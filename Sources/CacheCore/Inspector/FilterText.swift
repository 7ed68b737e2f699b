import Foundation

/// The lexical rules shared by the filter parser and ``EntryFilter/description``.
enum FilterText {
    /// Words that are terms of their own rather than key text.
    static let keywords = ["expired", "never"]
    /// `name:` prefixes that introduce a term.
    static let prefixes = ["prefix:", "tag:", "regex:"]
    /// Characters that start a comparison.
    static let operatorCharacters: Set<Character> = ["<", ">", "=", "!"]

    static let durationUnits: [(name: String, milliseconds: Int64)] = [
        ("w", 604_800_000), ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1),
    ]
    static let sizeUnits: [(name: String, bytes: Int64)] = [
        ("GiB", 1 << 30), ("GB", 1_000_000_000), ("MiB", 1 << 20), ("MB", 1_000_000), ("KiB", 1 << 10), ("KB", 1000),
        ("B", 1),
    ]

    /// Whether bare `text` would not parse back as a key substring.
    static func needsQuotes(_ text: String) -> Bool {
        text.isEmpty || text.first == "\"" || keywords.contains(text.lowercased())
            || prefixes.contains { text.lowercased().hasPrefix($0) }
            || text.contains { $0.isWhitespace || $0 == "\"" || operatorCharacters.contains($0) }
    }

    /// Milliseconds since the epoch as the filter writes them: ISO 8601 in UTC, with
    /// milliseconds when there are any.
    static func timestamp(_ milliseconds: Int64) -> String {
        // Whole seconds through Date (exact in a Double), the milliseconds as digits.
        let remainder = ((milliseconds % 1000) + 1000) % 1000
        let seconds = (milliseconds - remainder) / 1000
        let text = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle())
        guard remainder != 0 else { return text }
        let digits = String(remainder)
        return text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// The operand of a `name:` term, quoted when it must be.
    static func operand(_ text: String) -> String {
        text.isEmpty || text.contains { $0.isWhitespace || $0 == "\"" } ? quoted(text) : text
    }

    /// `text` in double quotes, with `"` and `\` escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }

    /// `milliseconds` in the largest unit that divides it exactly (`90s`, `1h`, `0`).
    static func duration(_ milliseconds: Int64) -> String {
        guard milliseconds != 0 else { return "0" }
        let unit = durationUnits.first { milliseconds % $0.milliseconds == 0 } ?? ("ms", 1)
        return "\(milliseconds / unit.milliseconds)\(unit.name)"
    }

    /// `bytes` in the largest unit that divides it exactly (`4KiB`, `1KB`, `17B`).
    static func size(_ bytes: Int64) -> String {
        guard bytes != 0 else { return "0" }
        let unit = sizeUnits.first { bytes % $0.bytes == 0 } ?? ("B", 1)
        return "\(bytes / unit.bytes)\(unit.name)"
    }
}
