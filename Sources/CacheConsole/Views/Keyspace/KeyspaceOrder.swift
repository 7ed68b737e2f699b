import CacheCoreRedis
import Foundation

/// How a keyspace level's rows are sorted (`s` cycles, `S` reverses): by memory (largest
/// first, as the scan ranks them), name, TTL (soonest first, then keys that never expire, then
/// prefixes) or type.
package enum KeyspaceOrder: String, CaseIterable, Sendable {
    case memory, name, ttl, type

    /// The next order `s` picks.
    var next: KeyspaceOrder {
        let all = Self.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }

    /// The column the header marks (Name, Memory, Type, TTL of ``KeyspaceScreen``).
    var column: Int {
        switch self {
        case .name: 0
        case .memory: 2
        case .type: 4
        case .ttl: 5
        }
    }

    /// Whether the order's natural direction is largest first.
    var isDescendingByDefault: Bool { self == .memory }

    /// `rows` in this order (reversed when `reversed`); ties by name, so the order is stable.
    func sorted(_ rows: [KeyspaceNode], reversed: Bool) -> [KeyspaceNode] {
        rows.sorted { first, second in
            let before = precedes(first, second)
            let after = precedes(second, first)
            if before != after { return reversed ? after : before }
            return first.path.lexicographicallyPrecedes(second.path)
        }
    }

    private func precedes(_ first: KeyspaceNode, _ second: KeyspaceNode) -> Bool {
        switch self {
        case .memory: return first.bytes.value > second.bytes.value
        case .name: return first.nameText < second.nameText
        case .type: return (first.type?.rawValue ?? "") < (second.type?.rawValue ?? "")
        case .ttl:
            // Keys that expire, soonest first; then keys that never do; then prefixes.
            func rank(_ node: KeyspaceNode) -> (Int, Int64) {
                node.kind == .prefix ? (2, 0) : node.expiresAt.map { (0, $0) } ?? (1, 0)
            }
            return rank(first) < rank(second)
        }
    }
}

/// What `/` types in a keyspace level: a glob (`*`, `?`, `[abc]`, as `SCAN MATCH` reads it)
/// when it holds one of those, else text the name contains (ignoring case).
struct KeyspaceSearch: Sendable, Hashable {
    let text: String

    /// Whether the row named `name` matches.
    func matches(_ name: String) -> Bool {
        guard !text.isEmpty else { return true }
        guard text.contains(where: { "*?[".contains($0) }) else {
            return name.range(of: text, options: .caseInsensitive) != nil
        }
        return Self.glob(Array(text), Array(name))
    }

    /// Glob matching with backtracking on `*` (linear in practice, bounded by the lengths).
    private static func glob(_ pattern: [Character], _ name: [Character]) -> Bool {
        var p = 0
        var n = 0
        var star: (p: Int, n: Int)?
        while n < name.count {
            if p < pattern.count, let width = matchOne(pattern, p, name[n]) {
                p += width
                n += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = (p, n)
                p += 1
            } else if let resume = star {
                p = resume.p + 1
                n = resume.n + 1
                star = (resume.p, resume.n + 1)
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// How many pattern characters at `p` match `character` (`?`, `[set]`, `\x`, a literal);
    /// `nil` when they do not (or `p` is a `*`).
    private static func matchOne(_ pattern: [Character], _ p: Int, _ character: Character) -> Int? {
        switch pattern[p] {
        case "*": return nil
        case "?": return 1
        case "\\" where p + 1 < pattern.count: return pattern[p + 1] == character ? 2 : nil
        case "[":
            guard let close = pattern[(p + 1)...].firstIndex(of: "]") else { return pattern[p] == character ? 1 : nil }
            var set = pattern[(p + 1)..<close]
            let negated = set.first == "^"
            if negated { set = set.dropFirst() }
            var found = false
            var index = set.startIndex
            while index < set.endIndex {
                if index + 2 < set.endIndex, set[index + 1] == "-" {
                    // A range given backwards counts forwards, as Redis reads it.
                    let ends = [set[index], set[index + 2]].sorted()
                    found = found || (ends[0]...ends[1]).contains(character)
                    index += 3
                } else {
                    found = found || set[index] == character
                    index += 1
                }
            }
            return found != negated ? close - p + 1 : nil
        default: return pattern[p] == character ? 1 : nil
        }
    }
}
