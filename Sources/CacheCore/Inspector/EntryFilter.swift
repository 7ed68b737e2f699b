/// How a typed filter term compares an entry's value with its operand.
public enum FilterComparison: String, Sendable, Hashable, Codable, CaseIterable {
    /// `<`
    case less = "<"
    /// `<=`
    case lessOrEqual = "<="
    /// `=`
    case equal = "="
    /// `!=`
    case notEqual = "!="
    /// `>=`
    case greaterOrEqual = ">="
    /// `>`
    case greater = ">"

    /// The comparison with its operands swapped (`a < b` is `b > a`).
    package var swapped: FilterComparison {
        switch self {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        case .equal, .notEqual: self
        }
    }

    /// Whether an infinite left operand satisfies the comparison.
    package var holdsForInfinity: Bool { self == .greater || self == .greaterOrEqual || self == .notEqual }
}

/// One condition of an ``EntryFilter``.
public enum EntryFilterTerm: Sendable, Hashable {
    /// The key contains this text (case-sensitive).
    case keyContains(String)
    /// The key starts with this text.
    case keyPrefix(String)
    /// The key matches this regular expression somewhere (ICU syntax, as `NSRegularExpression`).
    case keyMatches(String)
    /// The entry carries this tag.
    case tag(String)
    /// Milliseconds until expiry compare with the operand. Expired entries have a time to live
    /// of zero or less; entries that never expire have an infinite one.
    case timeToLive(FilterComparison, milliseconds: Int64)
    /// The expiry time (milliseconds since the epoch) compares with the operand. An entry
    /// that never expires has no expiry time and meets no such term (``neverExpires`` finds it).
    case expiresAt(FilterComparison, milliseconds: Int64)
    /// Key plus value bytes compare with the operand.
    case size(FilterComparison, bytes: Int64)
    /// Recorded reads compare with the operand.
    case hits(FilterComparison, Int64)
    /// Milliseconds since the current value was written compare with the operand.
    case age(FilterComparison, milliseconds: Int64)
    /// The time the current value was written (milliseconds since the epoch) compares with
    /// the operand: `created>=T created<U` lists what was written in `T..<U`.
    case createdAt(FilterComparison, milliseconds: Int64)
    /// The entry has expired (`now >= expiresAt`) and is not yet swept.
    case expired
    /// The entry never expires.
    case neverExpires
}

/// Conditions that every listed entry meets (they are ANDed).
///
/// Filters parse from text, terms separated by spaces: `size>1KB hits=0 user_`. See
/// ``init(parsing:)`` for the syntax; ``description`` writes a filter back in it.
public struct EntryFilter: Sendable, Hashable {
    /// The conditions, all of which must hold.
    public var terms: [EntryFilterTerm]

    /// A filter of `terms`; no terms matches every entry.
    public init(_ terms: [EntryFilterTerm] = []) {
        self.terms = terms
    }

    /// Whether the filter matches every entry.
    public var isEmpty: Bool { terms.isEmpty }
}

extension EntryFilter: CustomStringConvertible {
    /// The filter in the text syntax; parsing it gives back an equal filter.
    public var description: String { terms.map(\.description).joined(separator: " ") }
}

extension EntryFilterTerm: CustomStringConvertible {
    /// The term in the text syntax.
    public var description: String {
        switch self {
        case .keyContains(let text): FilterText.needsQuotes(text) ? FilterText.quoted(text) : text
        case .keyPrefix(let text): "prefix:" + FilterText.operand(text)
        case .keyMatches(let pattern): "regex:" + FilterText.operand(pattern)
        case .tag(let tag): "tag:" + FilterText.operand(tag)
        case .timeToLive(let comparison, let milliseconds):
            "ttl" + comparison.rawValue + FilterText.duration(milliseconds)
        case .expiresAt(let comparison, let milliseconds):
            "expires" + comparison.rawValue + FilterText.timestamp(milliseconds)
        case .size(let comparison, let bytes): "size" + comparison.rawValue + FilterText.size(bytes)
        case .hits(let comparison, let count): "hits" + comparison.rawValue + String(count)
        case .age(let comparison, let milliseconds): "age" + comparison.rawValue + FilterText.duration(milliseconds)
        case .createdAt(let comparison, let milliseconds):
            "created" + comparison.rawValue + FilterText.timestamp(milliseconds)
        case .expired: "expired"
        case .neverExpires: "never"
        }
    }
}
