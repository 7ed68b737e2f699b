import CacheCore
import Foundation

/// The prefix tree of the keys a scan found: every prefix under the scan's own, with its
/// totals, the prefixes below it and its keys. Adding a key updates every prefix on its path
/// in place, so an insert costs the key's depth, whatever the keyspace's size.
///
/// Its memory is bounded: it lists at most ``maxKeys`` keys and ``maxPrefixes`` prefixes.
/// A key past either bound is still counted, in the deepest prefix the tree keeps, as an
/// *unlisted* key; since a key `SCAN` returns twice can then no longer be told apart (a
/// listed key is counted once), the totals over unlisted keys are estimates, and say so.
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
        /// Keys below it that the tree counts without listing them (past its bounds).
        var unlistedKeys = 0
        var childPrefixes: Set<Data> = []
        var leaves: [Data: KeyFacts] = [:]

        /// Counts a key below it.
        mutating func add(_ facts: KeyFacts, listed: Bool) {
            keys += 1
            bytes = bytes.addingClamped(facts.bytes)
            if facts.isSampled { sampledKeys += 1 }
            if !listed { unlistedKeys += 1 }
        }
    }

    /// The most keys a tree lists (about 200 bytes each with their facts).
    static let defaultMaxKeys = 250_000
    /// The most prefixes a tree keeps.
    static let defaultMaxPrefixes = 100_000

    /// The scan's prefix: the tree's root.
    let root: Data
    /// The separator names split on.
    let separator: [UInt8]
    let maxKeys: Int
    let maxPrefixes: Int
    /// Each prefix's place in `nodes` (the root's is 0): a key's insert hashes each prefix on
    /// its path once, and its name once.
    private var places: [Data: Int]
    private var nodes: [Prefix]
    /// Keys listed as leaves.
    private(set) var listedKeys = 0

    init(
        root: Data, separator: String, maxKeys: Int = Self.defaultMaxKeys, maxPrefixes: Int = Self.defaultMaxPrefixes
    ) {
        self.root = root
        self.separator = Array(separator.utf8)
        self.maxKeys = max(0, maxKeys)
        self.maxPrefixes = max(1, maxPrefixes)
        places = [root: 0]
        nodes = [Prefix()]
    }

    /// Whether the tree lists no more keys (any key found now is counted, not listed).
    var isFull: Bool { listedKeys >= maxKeys }

    /// Keys under the root, listed or not.
    var keyCount: Int { nodes[0].keys }

    /// The prefixes the tree keeps, its root included.
    var prefixCount: Int { nodes.count }

    /// The prefix `path`, if the tree has it.
    func prefix(_ path: Data) -> Prefix? { places[path].map { nodes[$0] } }

    /// Adds `key` (found by the scan) unless it is listed already; `false` for a listed
    /// duplicate or a key outside the root. Each prefix on its path is looked up once.
    @discardableResult
    mutating func insert(_ key: Data, _ facts: KeyFacts) -> Bool {
        guard root.isEmpty || (key.count >= root.count && key.prefix(root.count) == root) else { return false }
        // The places of the prefixes on the key's path; a new one's name, to add it if the key is new.
        var path = [0]
        var newPrefixes: [Data] = []
        var isCut = false
        var position = key.startIndex + root.count
        while !separator.isEmpty, let found = Self.firstIndex(of: separator, in: key, from: position) {
            position = found + separator.count
            let prefix = Data(key[key.startIndex..<position])
            if newPrefixes.isEmpty, let place = places[prefix] {
                path.append(place)
                continue
            }
            guard nodes.count + newPrefixes.count < maxPrefixes else {
                isCut = true
                break
            }
            newPrefixes.append(prefix)
        }
        let listed = !isCut && listedKeys < maxKeys
        if newPrefixes.isEmpty {
            // The deepest prefix first: a key listed there already is a duplicate, counted once.
            let isNew = Self.modify(&nodes[path[path.count - 1]]) { leaf in
                if listed { return leaf.leaves.updateValue(facts, forKey: key) == nil }
                return leaf.leaves[key] == nil
            }
            guard isNew else { return false }
        } else {
            // Under a new prefix the key is new too.
            for prefix in newPrefixes {
                nodes[path[path.count - 1]].childPrefixes.insert(prefix)
                places[prefix] = nodes.count
                path.append(nodes.count)
                nodes.append(Prefix())
            }
            if listed { nodes[path[path.count - 1]].leaves[key] = facts }
        }
        for place in path { nodes[place].add(facts, listed: listed) }
        if listed { listedKeys += 1 }
        return true
    }

    /// Runs `body` on `node` in place (one dictionary access for several changes).
    @discardableResult
    private static func modify<T>(_ node: inout Prefix, _ body: (inout Prefix) -> T) -> T { body(&node) }

    /// The children of `prefix`, largest first (by memory, then name), at most `limit` of
    /// them; amounts are lower bounds unless `isComplete`, and estimates over unlisted keys.
    func level(_ prefix: Data, limit: Int, isComplete: Bool, separatorText: String, scan: KeyspaceScanProgress)
        -> KeyspaceLevel
    {
        let node = self.prefix(prefix) ?? Prefix()
        // Rank light (name, bytes) pairs; build the rows shown only.
        var ranked: [(path: Data, bytes: Int, isPrefix: Bool)] = node.childPrefixes.map {
            ($0, self.prefix($0)?.bytes ?? 0, true)
        }
        ranked.reserveCapacity(ranked.count + node.leaves.count)
        for (key, facts) in node.leaves { ranked.append((key, facts.bytes, false)) }
        let count = ranked.count
        let shown = Self.largest(ranked, limit: max(0, limit))
        let children = shown.map { item -> KeyspaceNode in
            if item.isPrefix {
                let child = self.prefix(item.path) ?? Prefix()
                let name = Data(item.path.dropFirst(prefix.count))
                return KeyspaceNode(
                    kind: .prefix, name: name, nameText: PrintableKey.text(name), path: item.path,
                    keys: Self.keys(child, isComplete: isComplete), bytes: Self.bytes(child, isComplete: isComplete),
                    type: nil, expiresAt: nil)
            }
            return Self.keyNode(
                item.path, under: prefix,
                node.leaves[item.path] ?? KeyFacts(type: .unread, bytes: 0, isSampled: false))
        }
        return KeyspaceLevel(
            prefix: prefix, prefixText: PrintableKey.text(prefix), separator: separatorText,
            children: children, childCount: count,
            keys: Self.keys(node, isComplete: isComplete), bytes: Self.bytes(node, isComplete: isComplete),
            unlistedKeys: node.unlistedKeys, scan: scan)
    }

    /// The row of `key` in the level of `prefix`.
    static func keyNode(_ key: Data, under prefix: Data, _ facts: KeyFacts) -> KeyspaceNode {
        let name = Data(key.dropFirst(prefix.count))
        return KeyspaceNode(
            kind: .key, name: name, nameText: PrintableKey.text(name), path: key, keys: KeyspaceAmount(1),
            bytes: KeyspaceAmount(facts.bytes, isSampled: facts.isSampled), type: facts.type,
            expiresAt: facts.expiresAt)
    }

    /// A prefix's key count: a lower bound while the scan runs, an estimate over unlisted keys.
    private static func keys(_ node: Prefix, isComplete: Bool) -> KeyspaceAmount {
        KeyspaceAmount(node.keys, isLowerBound: !isComplete, isSampled: node.unlistedKeys > 0)
    }

    /// A prefix's memory: as its key count, and an estimate where Redis sampled.
    private static func bytes(_ node: Prefix, isComplete: Bool) -> KeyspaceAmount {
        KeyspaceAmount(node.bytes, isLowerBound: !isComplete, isSampled: node.sampledKeys > 0 || node.unlistedKeys > 0)
    }

    /// The `limit` largest of `items` (by bytes, then path), in that order.
    private static func largest(_ items: [(path: Data, bytes: Int, isPrefix: Bool)], limit: Int)
        -> [(path: Data, bytes: Int, isPrefix: Bool)]
    {
        let before: ((path: Data, bytes: Int, isPrefix: Bool), (path: Data, bytes: Int, isPrefix: Bool)) -> Bool = {
            $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.path.lexicographicallyPrecedes($1.path)
        }
        guard items.count > limit * 4 else { return Array(items.sorted(by: before).prefix(limit)) }
        // Far more children than shown: keep a sorted window of `limit` while walking them.
        var window: [(path: Data, bytes: Int, isPrefix: Bool)] = []
        window.reserveCapacity(limit + 1)
        for item in items {
            if window.count == limit, let last = window.last, !before(item, last) { continue }
            let position = window.partitioningIndex { !before($0, item) }
            window.insert(item, at: position)
            if window.count > limit { window.removeLast() }
        }
        return window
    }

    private static func firstIndex(of needle: [UInt8], in bytes: Data, from start: Data.Index) -> Data.Index? {
        guard let first = needle.first else { return nil }
        return bytes.withUnsafeBytes { buffer -> Data.Index? in
            var offset = start - bytes.startIndex
            while offset + needle.count <= buffer.count {
                if buffer[offset] == first && needle.indices.allSatisfy({ buffer[offset + $0] == needle[$0] }) {
                    return bytes.startIndex + offset
                }
                offset += 1
            }
            return nil
        }
    }
}

extension Array {
    /// The first index whose element satisfies `belongsAfter`, for an array partitioned by it
    /// (binary search).
    fileprivate func partitioningIndex(where belongsAfter: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if belongsAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
