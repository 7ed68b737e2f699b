import CacheCore
import Foundation

/// Filters tested on rows already read (where there is no SQL to run them), with the same
/// meaning as their SQL conditions (see FilterSQL.swift).
extension EntryFilter {
    /// The filter's regular expressions, ready for `matches(_:now:keys:)`.
    func keyMatcher() throws -> KeyMatcher {
        KeyMatcher(try compiledRegexes())
    }

    /// Whether `row` meets every term at `now`; regular expressions run through `keys`.
    func matches(_ row: EntryRow, now: Int64, keys: KeyMatcher) throws -> Bool {
        for term in terms where !term.matches(row, now: now) { return false }
        return keys.isEmpty ? true : try keys.allMatch(row.key)
    }
}

extension EntryFilterTerm {
    /// Whether `row` meets the term at `now` (a regular expression always does here: it is
    /// tested by `KeyMatcher`).
    func matches(_ row: EntryRow, now: Int64) -> Bool {
        switch self {
        case .keyContains(let text): return text.isEmpty || row.key.contains(text)
        case .keyPrefix(let prefix): return row.key.hasPrefix(prefix)
        case .keyMatches: return true
        case .tag(let tag): return row.tags.contains(tag)
        case .timeToLive(let comparison, let milliseconds):
            guard let expiresAt = row.expiresAt else { return comparison.holdsForInfinity }
            return comparison.holds(expiresAt, now.addingClamped(milliseconds))
        case .expiresAt(let comparison, let milliseconds):
            return row.expiresAt.map { comparison.holds($0, milliseconds) } ?? false
        case .size(let comparison, let bytes): return comparison.holds(Int64(row.size), bytes)
        case .hits(let comparison, let count): return comparison.holds(Int64(row.hits), count)
        case .age(let comparison, let milliseconds):
            return comparison.swapped.holds(row.createdAt, now.subtractingClamped(milliseconds))
        case .createdAt(let comparison, let milliseconds): return comparison.holds(row.createdAt, milliseconds)
        case .expired: return row.expiresAt.map { $0 <= now } ?? false
        case .neverExpires: return row.expiresAt == nil
        }
    }
}

extension FilterComparison {
    /// Whether `left <op> right`.
    func holds(_ left: Int64, _ right: Int64) -> Bool {
        switch self {
        case .less: left < right
        case .lessOrEqual: left <= right
        case .equal: left == right
        case .notEqual: left != right
        case .greaterOrEqual: left >= right
        case .greater: left > right
        }
    }
}
