import Foundation

/// Why a filter's text did not parse: one line naming the offending part.
public struct EntryFilterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The explanation, e.g. `unknown field 'siz' (fields: ttl, size, hits, age)`.
    public let description: String

    package init(_ description: String) {
        self.description = description
    }
}

extension EntryFilter {
    /// Parses terms separated by spaces; an entry must meet all of them.
    ///
    /// - `user_` — the key contains the text (case-sensitive); quote text with spaces or
    ///   operator characters: `"a b"`, `"x=1"` (`\"` and `\\` escape inside quotes).
    /// - `prefix:user_`, `tag:blue`, `regex:^user_[0-9]+$` — key prefix, tag, key regex.
    /// - `ttl<60s`, `age>1d` — time to live and age, with `<`, `<=`, `=`, `!=`, `>=`, `>` and
    ///   units `ms`, `s`, `m`, `h`, `d`, `w` (a negative time to live has expired).
    /// - `size>1KB`, `size<=4KiB` — key plus value bytes: `B`, `KB`, `MB`, `GB` (1000) and
    ///   `KiB`, `MiB`, `GiB` (1024); a bare number is bytes.
    /// - `expires>=2026-11-27T03:00:00Z`, `expires<2026-11-27T04:00:00.500Z` — the expiry
    ///   time, ISO 8601 in UTC (milliseconds optional); never-expiring entries meet none.
    /// - `created>=2026-11-27T03:00:00Z` — when the current value was written, ISO 8601 in UTC.
    /// - `hits=0`, `hits>10` — recorded reads.
    /// - `expired` (not yet swept) and `never` (no expiry).
    ///
    /// Field names, keywords and units are case-insensitive.
    public init(parsing text: String) throws(EntryFilterError) {
        self.init(try FilterTokenizer.tokens(in: text).map { token throws(EntryFilterError) in try token.term() })
    }
}

/// A space-separated word of filter text.
struct FilterToken {
    /// The text with quotes removed and escapes resolved.
    var text: String
    /// Whether the word began with a quote, which makes it key text whatever it says.
    var isQuoted: Bool

    func term() throws(EntryFilterError) -> EntryFilterTerm {
        if isQuoted { return .keyContains(text) }
        let lowered = text.lowercased()
        switch lowered {
        case "expired": return .expired
        case "never": return .neverExpires
        default: break
        }
        for prefix in FilterText.prefixes where lowered.hasPrefix(prefix) {
            let operand = String(text.dropFirst(prefix.count))
            guard !operand.isEmpty else { throw EntryFilterError("missing value after '\(text)'") }
            switch prefix {
            case "prefix:": return .keyPrefix(operand)
            case "tag:": return .tag(operand)
            default:
                _ = try EntryFilter.regex(operand)
                return .keyMatches(operand)
            }
        }
        guard let operatorStart = text.firstIndex(where: { FilterText.operatorCharacters.contains($0) }) else {
            return .keyContains(text)
        }
        return try comparison(field: String(text[..<operatorStart]), rest: text[operatorStart...])
    }

    private func comparison(field: String, rest: Substring) throws(EntryFilterError) -> EntryFilterTerm {
        guard
            let comparison = FilterComparison.allCases.sorted(by: { $0.rawValue.count > $1.rawValue.count })
                .first(where: { rest.hasPrefix($0.rawValue) })
        else { throw EntryFilterError("bad operator in '\(text)' (use <, <=, =, !=, >=, >)") }
        let operand = String(rest.dropFirst(comparison.rawValue.count))
        guard !field.isEmpty else {
            throw EntryFilterError("missing field before '\(comparison.rawValue)' in '\(text)'")
        }
        guard !operand.isEmpty else { throw EntryFilterError("missing value after '\(text)'") }
        switch field.lowercased() {
        case "ttl": return .timeToLive(comparison, milliseconds: try FilterNumber.duration(operand))
        case "age": return .age(comparison, milliseconds: try FilterNumber.duration(operand))
        case "expires": return .expiresAt(comparison, milliseconds: try FilterNumber.timestamp(operand))
        case "created": return .createdAt(comparison, milliseconds: try FilterNumber.timestamp(operand))
        case "size": return .size(comparison, bytes: try FilterNumber.size(operand))
        case "hits":
            guard let count = Int64(operand), count >= 0 else { throw EntryFilterError("bad count '\(operand)'") }
            return .hits(comparison, count)
        default: throw EntryFilterError("unknown field '\(field)' (fields: ttl, size, hits, age, expires, created)")
        }
    }
}

/// Splits filter text into words, honouring double quotes.
enum FilterTokenizer {
    static func tokens(in text: String) throws(EntryFilterError) -> [FilterToken] {
        var tokens: [FilterToken] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index].isWhitespace {
                index = text.index(after: index)
                continue
            }
            var token = FilterToken(text: "", isQuoted: text[index] == "\"")
            let start = index
            while index < text.endIndex, !text[index].isWhitespace {
                if text[index] == "\"" {
                    index = try readQuoted(text, from: index, into: &token.text, wordStart: start)
                } else {
                    token.text.append(text[index])
                    index = text.index(after: index)
                }
            }
            tokens.append(token)
        }
        return tokens
    }

    /// Appends the quoted run that starts at `quote` and returns the index after its closing quote.
    private static func readQuoted(
        _ text: String, from quote: String.Index, into result: inout String, wordStart: String.Index
    ) throws(EntryFilterError) -> String.Index {
        var index = text.index(after: quote)
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { return text.index(after: index) }
            let next = text.index(after: index)
            if character == "\\", next < text.endIndex, text[next] == "\"" || text[next] == "\\" {
                result.append(text[next])
                index = text.index(after: next)
            } else {
                result.append(character)
                index = next
            }
        }
        throw EntryFilterError("unterminated quote in '\(text[wordStart...])'")
    }
}

/// Numbers with units in filter operands.
enum FilterNumber {
    /// Milliseconds of `12s`, `1.5h`, `-5m` or `0`.
    static func duration(_ text: String) throws(EntryFilterError) -> Int64 {
        let error = EntryFilterError("bad duration '\(text)' (units: ms, s, m, h, d, w)")
        let (number, unit) = split(text)
        if unit.isEmpty, let zero = Double(number), zero == 0 { return 0 }
        guard let factor = FilterText.durationUnits.first(where: { $0.name == unit.lowercased() })?.milliseconds
        else { throw error }
        return try scaled(number, by: factor, orThrow: error)
    }

    /// Milliseconds since the epoch of `2026-11-27T03:00:00Z` or `2026-11-27T03:00:00.250Z`.
    static func timestamp(_ text: String) throws(EntryFilterError) -> Int64 {
        let error = EntryFilterError("bad time '\(text)' (ISO 8601 in UTC: 2026-11-27T03:00:00Z)")
        // Milliseconds are read as digits, not through a Double, so every one survives.
        var whole = Substring(text)
        var fraction: Int64 = 0
        if let dot = text.lastIndex(of: "."), text.hasSuffix("Z") {
            let digits = text[text.index(after: dot)..<text.index(before: text.endIndex)]
            guard (1...3).contains(digits.count), digits.allSatisfy(\.isASCII), let value = Int64(digits) else {
                throw error
            }
            fraction = value * [100, 10, 1][digits.count - 1]
            whole = text[..<dot] + "Z"
        }
        guard let date = try? Date.ISO8601FormatStyle().parse(String(whole)) else { throw error }
        let seconds = date.timeIntervalSince1970
        // Years 1 through 9999, as ISO 8601 writes them.
        guard (-62_135_596_800...253_402_300_799).contains(seconds) else { throw error }
        return Int64(seconds) * 1000 + fraction
    }

    /// Bytes of `512`, `1KB`, `4KiB` or `1.5MB`.
    static func size(_ text: String) throws(EntryFilterError) -> Int64 {
        let error = EntryFilterError("bad size '\(text)' (units: B, KB, MB, GB, KiB, MiB, GiB)")
        let (number, unit) = split(text)
        guard !number.hasPrefix("-") else { throw error }
        let factor: Int64
        if unit.isEmpty {
            factor = 1
        } else if let match = FilterText.sizeUnits.first(where: { $0.name.lowercased() == unit.lowercased() }) {
            factor = match.bytes
        } else {
            throw error
        }
        return try scaled(number, by: factor, orThrow: error)
    }

    /// The leading number (sign, digits, one point) and the unit after it.
    private static func split(_ text: String) -> (number: Substring, unit: Substring) {
        var end = text.startIndex
        if end < text.endIndex, text[end] == "-" { end = text.index(after: end) }
        while end < text.endIndex, text[end].isASCII, text[end].isNumber || text[end] == "." {
            end = text.index(after: end)
        }
        return (text[..<end], text[end...])
    }

    private static func scaled(_ number: Substring, by factor: Int64, orThrow error: EntryFilterError)
        throws(EntryFilterError) -> Int64
    {
        if let whole = Int64(number) {
            let (product, overflow) = whole.multipliedReportingOverflow(by: factor)
            guard !overflow else { throw error }
            return product
        }
        guard number.contains("."), number.last != ".", let value = Double(number) else { throw error }
        let scaled = (value * Double(factor)).rounded()
        guard scaled.magnitude < 9e18 else { throw error }
        return Int64(scaled)
    }
}
