import Foundation

/// How filter terms become SQL conditions on `entries`.
extension EntryFilterTerm {
    /// The SQL condition for this term at `now`, or `nil` for a term evaluated in Swift (a
    /// regular expression).
    func sqlCondition(now: Int64, _ sql: inout SQLBuilder) -> String? {
        switch self {
        case .keyContains(let text):
            return "instr(key, \(sql.parameter(.text(text)))) > 0"
        case .keyPrefix(let prefix):
            let (lower, upper) = Self.prefixBounds(prefix)
            return "(key >= \(sql.parameter(lower)) AND key < \(sql.parameter(upper)))"
        case .keyMatches:
            return nil
        case .tag(let tag):
            let placeholder = sql.parameter(.text(tag))
            return "EXISTS (SELECT 1 FROM entry_tags WHERE tag = \(placeholder) AND entry_id = entries.id)"
        case .timeToLive(let comparison, let milliseconds):
            // expires_at - now <op> ttl  ⇔  expires_at <op> now + ttl; NULL (never) is infinite.
            let bound = sql.parameter(now.addingClamped(milliseconds))
            let finite = "expires_at \(comparison.rawValue) \(bound)"
            return comparison.holdsForInfinity ? "(expires_at IS NULL OR \(finite))" : finite
        case .expiresAt(let comparison, let milliseconds):
            // NULL (never) compares with nothing: it has no expiry time.
            return "expires_at \(comparison.rawValue) \(sql.parameter(milliseconds))"
        case .size(let comparison, let bytes):
            return "size \(comparison.rawValue) \(sql.parameter(bytes))"
        case .hits(let comparison, let count):
            return "hits \(comparison.rawValue) \(sql.parameter(count))"
        case .age(let comparison, let milliseconds):
            // now - created_at <op> age  ⇔  created_at <swapped op> now - age.
            return "created_at \(comparison.swapped.rawValue) \(sql.parameter(now.subtractingClamped(milliseconds)))"
        case .createdAt(let comparison, let milliseconds):
            return "created_at \(comparison.rawValue) \(sql.parameter(milliseconds))"
        case .expired:
            return "expires_at <= \(sql.parameter(now))"
        case .neverExpires:
            return "expires_at IS NULL"
        }
    }

    /// The one `entries` column the term's condition reads, or `nil` when it reads more (the
    /// tag index) or is tested in Swift.
    var column: String? {
        switch self {
        case .keyContains, .keyPrefix: "key"
        case .keyMatches, .tag: nil
        case .timeToLive, .expiresAt, .expired, .neverExpires: "expires_at"
        case .size: "size"
        case .hits: "hits"
        case .age, .createdAt: "created_at"
        }
    }

    /// Whether the term bounds the leading column of `field`'s index, so a walk in that order
    /// can apply it as a range instead of testing every row.
    func narrowsWalk(by field: EntrySortField) -> Bool {
        switch self {
        case .keyPrefix: field == .key
        case .timeToLive, .expiresAt, .expired, .neverExpires: field == .expires
        case .keyContains, .keyMatches, .tag, .size, .hits, .age, .createdAt: false
        }
    }

    /// Whether testing the term during a walk in `field` order reads more than the walked
    /// index: the table row, or the tag index.
    func readsRow(walking field: EntrySortField) -> Bool {
        switch self {
        case .keyContains, .keyPrefix, .keyMatches: field != .key
        case .timeToLive, .expiresAt, .expired, .neverExpires: field != .expires
        case .tag, .size, .hits, .age, .createdAt: true
        }
    }

    /// Keys starting with `prefix` are exactly those in `lower..<upper` in byte order: the
    /// upper bound appends 0xFF, a byte no UTF-8 text contains.
    static func prefixBounds(_ prefix: String) -> (lower: SQLValue, upper: SQLValue) {
        (.text(prefix), .textBytes(Data(prefix.utf8) + [0xFF]))
    }
}

extension EntryFilter {
    /// The filter's regular expressions, compiled (they are evaluated in Swift, on keys).
    package func compiledRegexes() throws(EntryFilterError) -> [NSRegularExpression] {
        var regexes: [NSRegularExpression] = []
        for case .keyMatches(let pattern) in terms { regexes.append(try Self.regex(pattern)) }
        return regexes
    }

    /// `pattern` compiled, or the filter error that names it.
    static func regex(_ pattern: String) throws(EntryFilterError) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern)
        } catch {
            throw EntryFilterError("bad regex '\(pattern)'")
        }
    }
}
