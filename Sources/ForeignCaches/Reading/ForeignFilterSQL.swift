import CacheCore
import Foundation

/// The inspector's filter terms as SQL over a foreign table; a term the table cannot answer
/// (a tag where there are none, hits where reads are not counted) is refused, not ignored.
struct ForeignFilterSQL {
    let table: ForeignTable
    let now: Int64

    /// One SQL term per filter term, and their values in order.
    func clauses(_ filter: EntryFilter) throws -> (sql: [String], values: [SQLiteValue]) {
        var sql: [String] = []
        var values: [SQLiteValue] = []
        for term in filter.terms {
            let (clause, bound) = try clause(term)
            sql.append(clause)
            values += bound
        }
        return (sql, values)
    }

    private func clause(_ term: EntryFilterTerm) throws -> (String, [SQLiteValue]) {
        let keyBytes = "CAST(\(table.key) AS BLOB)"
        switch term {
        case .keyContains(let text):
            return ("instr(\(keyBytes), CAST(? AS BLOB)) > 0", [.text(text)])
        case .keyPrefix(let prefix):
            return ("substr(\(keyBytes), 1, ?) = CAST(? AS BLOB)", [.integer(Int64(prefix.utf8.count)), .text(prefix)])
        case .keyMatches:
            throw ForeignCacheError("regex: filters need CacheCore files; use text or prefix: here")
        case .tag(let tag):
            guard let column = table.tag else { throw missing("tags") }
            return ("\(column) = ?", [.text(tag)])
        case .size(let comparison, let bytes):
            return ("\(table.size) \(comparison.rawValue) ?", [.integer(bytes)])
        case .hits(let comparison, let count):
            guard let hits = table.hits else { throw missing("hits") }
            return ("\(hits) \(comparison.rawValue) ?", [.integer(count)])
        case .age(let comparison, let milliseconds):
            guard let created = table.created else { throw missing("write times") }
            return ("(? - \(created.milliseconds)) \(comparison.rawValue) ?", [.integer(now), .integer(milliseconds)])
        case .createdAt(let comparison, let milliseconds):
            guard let created = table.created else { throw missing("write times") }
            return ("\(created.milliseconds) \(comparison.rawValue) ?", [.integer(milliseconds)])
        case .timeToLive(let comparison, let milliseconds):
            guard let expires = table.expires else { throw missing("expiry") }
            // Never-expiring entries have an infinite time to live.
            return (
                "(CASE WHEN \(expires.column) IS NULL THEN ? ELSE (\(expires.milliseconds) - ?) \(comparison.rawValue) ? END)",
                [.integer(comparison.holdsForInfinity ? 1 : 0), .integer(now), .integer(milliseconds)]
            )
        case .expiresAt(let comparison, let milliseconds):
            guard let expires = table.expires else { throw missing("expiry") }
            return ("\(expires.column) \(comparison.rawValue) ?", [expires.stored(milliseconds)])
        case .expired:
            guard let expires = table.expires else { throw missing("expiry") }
            return ("\(expires.column) <= ?", [expires.stored(now)])
        case .neverExpires:
            guard let expires = table.expires else { throw missing("expiry") }
            return ("\(expires.column) IS NULL", [])
        }
    }

    private func missing(_ what: String) -> ForeignCacheError {
        ForeignCacheError("this cache records no \(what), so it cannot filter by them")
    }
}
