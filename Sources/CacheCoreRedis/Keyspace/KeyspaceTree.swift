import CacheCore
import Foundation

/// The prefix tree of the keys a scan found: every prefix under the scan's own, with its
/// totals, the prefixes below it and its keys. Adding a key updates every prefix on its path;
/// a key the scan returns twice (`SCAN` may) is counted once.
struct KeyspaceTree: Sendable {
    /// What the scan found about one key.
    struct KeyFacts: Sendable, Hashable {
        var type: RedisKeyType
        var expiresAt: Int64?
        var bytes: Int
        var isSampled: Bool
    }

    /// One prefix: totals over every key below it, its child prefixes and its own keys.
    struct Prefix: Sendable {
        var keys = 0
        var bytes = 0
        var sampledKeys = 0
        var childPrefixes: Set<Data> = []
        var leaves: [Data: KeyFacts] = [:]
    }

    /// The scan's prefix: the tree's root.
    let root: Data
    /// The separator names split on.
    let separator: [UInt8]
    private(set) var prefixes: [Data: Prefix]

    init(root: Data, separator: String) {
        self.root = root
        self.separator = Array(separator.utf8)
        prefixes = [root: Prefix()]
    }

    /// Adds `key` (found by the scan) unless it is there already; `false` for a duplicate or a
    /// key outside the root.
    @discardableResult
    mutating func insert(_ key: Data, _ facts: KeyFacts) -> Bool {
        let bytes = [UInt8](key)
        guard bytes.starts(with: root) else { return false }
        var path = [root]
        var position = root.count
        while !separator.isEmpty, let found = Self.firstIndex(of: separator, in: bytes, from: position) {
            position = found + separator.count
            path.append(Data(bytes[..<position]))
        }
        guard let leafPrefix = path.last, prefixes[leafPrefix]?.leaves[key] == nil else { return false }
        for (index, prefix) in path.enumerated() {
            var node = prefixes[prefix] ?? Prefix()
            node.keys += 1
            node.bytes = node.bytes.addingClamped(facts.bytes)
            if facts.isSampled { node.sampledKeys += 1 }
            if index + 1 < path.count { node.childPrefixes.insert(path[index + 1]) } else { node.leaves[key] = facts }
            prefixes[prefix] = node
        }
        return true
    }

    /// The children of `prefix`, largest first, at most `limit` of them; amounts are lower
    /// bounds unless `isComplete`.
    func level(_ prefix: Data, limit: Int, isComplete: Bool, separatorText: String, scan: KeyspaceScanProgress)
        -> KeyspaceLevel
    {
        let node = prefixes[prefix] ?? Prefix()
        var children: [KeyspaceNode] = node.childPrefixes.map { path in
            let child = prefixes[path] ?? Prefix()
            let name = path.dropFirst(prefix.count)
            return KeyspaceNode(
                kind: .prefix, name: Data(name), nameText: PrintableKey.text(Data(name)), path: path,
                keys: KeyspaceAmount(child.keys, isLowerBound: !isComplete),
                bytes: KeyspaceAmount(child.bytes, isLowerBound: !isComplete, isSampled: child.sampledKeys > 0),
                type: nil, expiresAt: nil)
        }
        for (key, facts) in node.leaves {
            let name = Data(key.dropFirst(prefix.count))
            children.append(
                KeyspaceNode(
                    kind: .key, name: name, nameText: PrintableKey.text(name), path: key, keys: KeyspaceAmount(1),
                    bytes: KeyspaceAmount(facts.bytes, isSampled: facts.isSampled), type: facts.type,
                    expiresAt: facts.expiresAt))
        }
        let count = children.count
        children.sort { left, right in
            left.bytes.value != right.bytes.value
                ? left.bytes.value > right.bytes.value
                : left.name.lexicographicallyPrecedes(right.name)
        }
        return KeyspaceLevel(
            prefix: prefix, prefixText: PrintableKey.text(prefix), separator: separatorText,
            children: Array(children.prefix(max(0, limit))), childCount: count,
            keys: KeyspaceAmount(node.keys, isLowerBound: !isComplete),
            bytes: KeyspaceAmount(node.bytes, isLowerBound: !isComplete, isSampled: node.sampledKeys > 0), scan: scan)
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0] && bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
