import CacheCore
import Foundation

/// Keys of one namespace an action selects, found in one batch (at most 1,000).
struct RedisSelectedBatch {
    let namespace: String
    /// The canonical keys (without the entry prefix and generation).
    let keys: [String]
    /// The tag the entries must carry (a tag action: tag sets may list keys rewritten without it).
    let tag: String?
}

/// What an action selects and how much it is: the one walk of the keyspace that both the
/// preview counts and the run moves, so the two agree.
extension RedisAdmin {
    /// Calls `body` with each batch of keys `selector` selects in the current generations
    /// until it returns `false`; returns whether it walked everything.
    @discardableResult
    func forEachBatch(of selector: InvalidationSelector, _ body: (RedisSelectedBatch) throws -> Bool) throws -> Bool {
        switch selector {
        case .key(let namespace, let key):
            return try body(RedisSelectedBatch(namespace: namespace, keys: [key], tag: nil))
        case .keys(let namespace, let keys):
            var seen = Set<String>()
            let unique = keys.filter { seen.insert($0).inserted }
            for start in stride(from: 0, to: unique.count, by: RedisStore.unlinkBatch) {
                let chunk = Array(unique[start..<min(start + RedisStore.unlinkBatch, unique.count)])
                guard try body(RedisSelectedBatch(namespace: namespace, keys: chunk, tag: nil)) else { return false }
            }
            return true
        case .prefix(let namespace, let prefix):
            guard let generation = try generation(of: namespace) else { return true }
            return try forEachBatch(namespace: namespace, generation: generation, prefix: prefix, body)
        case .tag(let tag, let namespace):
            for name in try namespace.map({ [$0] }) ?? store.namespaceNames() {
                guard let generation = try generation(of: name) else { continue }
                let set = store.keys.tags(name) + "\(generation):" + tag
                let finished = try store.scanBatches(["SSCAN", set], on: set) { members in
                    try body(RedisSelectedBatch(namespace: name, keys: members, tag: tag))
                }
                if !finished { return false }
            }
            return true
        case .namespace(let namespace):
            guard let generation = try generation(of: namespace) else { return true }
            return try forEachBatch(namespace: namespace, generation: generation, prefix: "", body)
        case .all:
            for name in try store.namespaceNames() where try !forEachBatch(of: .namespace(name), body) {
                return false
            }
            return true
        }
    }

    /// Calls `body` with each batch of keys starting with `prefix` in `generation` of `namespace`
    /// until it returns `false`; returns whether it walked everything.
    @discardableResult
    func forEachBatch(
        namespace: String, generation: Int64, prefix: String, _ body: (RedisSelectedBatch) throws -> Bool
    ) throws -> Bool {
        let start = store.keys.entries(namespace) + "\(generation):"
        return try store.scanBatches(["SCAN"], on: start, pattern: RedisKeys.glob(start + prefix) + "*") { found in
            try body(
                RedisSelectedBatch(
                    namespace: namespace, keys: found.map { String($0.dropFirst(start.count)) }, tag: nil))
        }
    }

    /// The entries of `batch` that exist in `generation` (carrying its tag), with their bytes
    /// (value plus key, as `ActionImpact/bytes`): what moving the batch would move now.
    func measure(_ batch: RedisSelectedBatch, generation: Int64) throws -> (keys: [String], bytes: Int) {
        let start = store.keys.entries(batch.namespace) + "\(generation):"
        let replies = try store.redis(start) { connection in
            try connection.pipeline(
                batch.keys.flatMap { key -> [[RedisArgument]] in
                    let entry = RedisArgument(start + key)
                    return [["EXISTS", entry], ["HSTRLEN", entry, "v"], ["HGET", entry, "t"]]
                })
        }
        var keys: [String] = []
        var bytes = 0
        for (index, key) in batch.keys.enumerated() {
            guard replies[3 * index].integer == 1 else { continue }
            if let tag = batch.tag {
                let tags =
                    replies[3 * index + 2].data.flatMap { try? JSONDecoder().decode([String].self, from: $0) } ?? []
                guard tags.contains(tag) else { continue }
            }
            keys.append(key)
            bytes += Int(replies[3 * index + 1].integer ?? 0) + key.utf8.count
        }
        return (keys, bytes)
    }

    /// The current generation of `namespace` (`nil` when the server does not know it).
    func generation(of namespace: String) throws -> Int64? {
        let hash = store.keys.namespace(namespace)
        return try store.redis(hash) { connection in
            try connection.command(["HGET", RedisArgument(hash), "generation"])
        }.integer
    }
}
