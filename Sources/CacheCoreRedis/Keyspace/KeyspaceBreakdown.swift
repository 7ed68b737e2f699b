import CacheCore
import Foundation

/// What a prefix of the keyspace holds, RedisInsight-like: its keys and memory by type and by
/// time to live, from the keys the scan listed under it. Keys counted past the tree's bound
/// have no type or expiry known: they show as one share of their own.
package struct KeyspaceBreakdown: Sendable, Hashable, Codable {
    /// The prefix, as bytes and as printable text.
    package var prefix: Data
    package var prefixText: String
    /// Keys under the prefix (`≥` while the scan runs, `~` past the bound).
    package var keys: KeyspaceAmount
    /// Their `MEMORY USAGE`.
    package var bytes: KeyspaceAmount
    /// Keys and memory by type, the most memory first.
    package var types: [Share]
    /// Keys and memory by time to live when scanned: expired, under an hour, a day, a week,
    /// longer, never.
    package var expiries: [Share]
    /// Keys counted but not listed (past the tree's bound): neither type nor expiry known.
    package var unlisted: Share?
    /// The scan the breakdown comes from.
    package var scan: KeyspaceScanProgress

    /// The keys and memory of one type or expiry range.
    package struct Share: Sendable, Hashable, Codable {
        package var name: String
        package var keys: Int
        package var bytes: Int
    }

    /// The expiry ranges, in order, by their upper bound in milliseconds from now.
    static let expiryRanges: [(name: String, below: Int64)] = [
        ("expired", 1), ("under 1 hour", 3_600_000), ("1 hour to 1 day", 86_400_000),
        ("1 day to 1 week", 604_800_000), ("over 1 week", .max),
    ]
    /// The share of keys that never expire.
    static let never = "never"
}

extension KeyspaceTree {
    /// The breakdown of the keys under `prefix` listed so far, with `now` for their TTLs
    /// (walks the prefix's subtree: at most the tree's listed keys).
    func breakdown(_ prefix: Data, now: Int64, isComplete: Bool, scan: KeyspaceScanProgress) -> KeyspaceBreakdown {
        var types: [String: KeyspaceBreakdown.Share] = [:]
        var expiries: [String: KeyspaceBreakdown.Share] = [:]
        func add(_ name: String, _ facts: KeyFacts, to shares: inout [String: KeyspaceBreakdown.Share]) {
            var share = shares[name] ?? .init(name: name, keys: 0, bytes: 0)
            share.keys += 1
            share.bytes = share.bytes.addingClamped(facts.bytes)
            shares[name] = share
        }
        var listedBytes = 0
        var pending = self.prefix(prefix) == nil ? [] : [prefix]
        while let next = pending.popLast(), let node = self.prefix(next) {
            pending += node.childPrefixes
            for facts in node.leaves.values {
                listedBytes = listedBytes.addingClamped(facts.bytes)
                add(facts.type.rawValue, facts, to: &types)
                let range = facts.expiresAt.map { at in
                    let left = at.subtractingClamped(now)
                    return KeyspaceBreakdown.expiryRanges.first { left < $0.below }?.name ?? KeyspaceBreakdown.never
                }
                add(range ?? KeyspaceBreakdown.never, facts, to: &expiries)
            }
        }
        let node = self.prefix(prefix) ?? Prefix()
        let order = KeyspaceBreakdown.expiryRanges.map(\.name) + [KeyspaceBreakdown.never]
        return KeyspaceBreakdown(
            prefix: prefix, prefixText: PrintableKey.text(prefix),
            keys: KeyspaceAmount(node.keys, isLowerBound: !isComplete, isSampled: node.unlistedKeys > 0),
            bytes: KeyspaceAmount(
                node.bytes, isLowerBound: !isComplete, isSampled: node.sampledKeys > 0 || node.unlistedKeys > 0),
            types: types.values.sorted { ($1.bytes, $0.name) < ($0.bytes, $1.name) },
            expiries: order.compactMap { expiries[$0] },
            unlisted: node.unlistedKeys > 0
                ? .init(name: "not listed", keys: node.unlistedKeys, bytes: max(0, node.bytes - listedBytes)) : nil,
            scan: scan)
    }
}

extension KeyspaceScan {
    /// What the keys under `path` (the scan's prefix when `nil`) found so far hold, by type
    /// and by TTL.
    package func breakdown(_ path: Data? = nil) -> KeyspaceBreakdown {
        withTree { tree, isComplete, progress in
            tree.breakdown(path ?? prefix, now: Self.now(), isComplete: isComplete, scan: progress)
        }
    }
}
