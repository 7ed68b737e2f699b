import CacheCore
import Foundation

/// Invalidation on Redis: by key, key set, prefix, tag, namespace or everything, with the
/// same dependency rules as a file store. Other hosts' near caches hear of it by push.
extension RedisStore {
    /// Keys per `UNLINK` or removal script call.
    static let unlinkBatch = 1000

    /// Removes what `selector` selects, and what the dependency rules add, from the server
    /// and from this process's memory tiers; every other host drops its copies by push.
    @discardableResult
    public func invalidate(_ selector: InvalidationSelector) throws -> InvalidationResult {
        try invalidate([selector])
    }

    /// Removes what each selector selects (and what the rules add).
    @discardableResult
    public func invalidate(_ selectors: [InvalidationSelector]) throws -> InvalidationResult {
        try invalidate(selectors, countedAs: .invalidations)
    }

    /// Runs the domain event `name` declared in `StoreOptions/invalidationRules`.
    @discardableResult
    public func invalidate(event name: String, parameters: [String: String] = [:]) throws -> InvalidationResult {
        try invalidate(try invalidationRules.selectors(forEvent: name, parameters: parameters))
    }

    /// Removes every entry of every namespace; returns how many.
    @discardableResult
    public func clear() throws -> Int { try invalidate(.all).totalRemoved }

    package func invalidate(_ selectors: [InvalidationSelector], countedAs counter: RemovalCounter) throws
        -> InvalidationResult
    {
        guard !options.readOnly else { throw CacheError.readOnly(path: endpoint) }
        return try invalidationRules.apply(selectors, countedAs: counter, in: registry, by: apply)
    }

    /// Finishes unlinking generations a clear or version change left behind (a process
    /// that stopped mid-way); returns how many entries it unlinked.
    @discardableResult
    public func sweepRetired() throws -> Int {
        // One retired set for the store, or one per namespace on a cluster.
        let sets = keys.isClustered ? try namespaceNames().map(keys.retired) : [keys.retired("")]
        var removed = 0
        for set in sets {
            let members = try redis(set) { connection in try connection.command(["SMEMBERS", RedisArgument(set)]) }
            for member in (members.array ?? []).compactMap(\.string) {
                guard let colon = member.lastIndex(of: ":"),
                    let generation = Int64(member[member.index(after: colon)...])
                else { continue }
                removed += try unlinkGeneration(generation, of: RedisKeys.unescape(String(member[..<colon])))
            }
        }
        return removed
    }

    /// Removes `selector`'s entries from the server, then from this process's memory (after
    /// the server, so a concurrent read cannot copy a removed entry back).
    private func apply(_ selector: InvalidationSelector) throws -> Int {
        let removed: Int
        switch selector {
        case .key(let namespace, let key): removed = try removeKeys([key], in: namespace)
        case .keys(let namespace, let keys): removed = try removeKeys(keys, in: namespace)
        case .prefix(let namespace, let prefix): removed = try removePrefix(prefix, in: namespace)
        case .tag(let tag, let namespace):
            removed = try (namespace.map { [$0] } ?? namespaceNames()).reduce(0) { $0 + (try removeTag(tag, in: $1)) }
        case .namespace(let namespace): removed = try clearNamespace(namespace)
        case .all: removed = try namespaceNames().reduce(0) { $0 + (try clearNamespace($1)) }
        }
        var memoryRemoved = 0
        for runtime in allRuntimes {
            let dropped = runtime.drop(selector)
            if runtime.record.policy.tiers == .memory { memoryRemoved += dropped }
        }
        return removed + memoryRemoved
    }

    /// Every namespace the server knows.
    func namespaceNames() throws -> [String] {
        let reply = try redis(keys.namespaces) { connection in
            try connection.command(["SMEMBERS", RedisArgument(keys.namespaces)])
        }
        return (reply.array ?? []).compactMap(\.string).sorted()
    }

    private func removeKeys(_ removing: [String], in namespace: String) throws -> Int {
        var removed = 0
        for start in stride(from: 0, to: removing.count, by: Self.unlinkBatch) {
            let batch = removing[start..<min(start + Self.unlinkBatch, removing.count)]
            let hash = keys.namespace(namespace)
            let entries = keys.entries(namespace) + "\(generationGuess(hash)):"
            let reply = try run(
                .remove, keys: [hash] + batch.map { entries + $0 },
                arguments: [RedisArgument(keys.entries(namespace)), RedisArgument(keys.tags(namespace)), "", ""]
                    + batch.map { RedisArgument($0) })
            removed += Int(reply.integer ?? 0)
        }
        return removed
    }

    private func removePrefix(_ prefix: String, in namespace: String) throws -> Int {
        let hash = keys.namespace(namespace)
        guard let generation = try generation(of: namespace) else { return 0 }
        return try scan(on: hash, matching: keys.entries(namespace) + "\(generation):" + prefix, suffix: "*") { found in
            try unlink(found, on: hash)
        }
    }

    /// The namespace's current generation (`nil` when it has none).
    private func generation(of namespace: String) throws -> Int64? {
        let hash = keys.namespace(namespace)
        return try redis(hash) { connection in try connection.command(["HGET", RedisArgument(hash), "generation"]) }
            .integer
    }

    private func removeTag(_ tag: String, in namespace: String) throws -> Int {
        guard let generation = try generation(of: namespace) else { return 0 }
        let set = keys.tags(namespace) + "\(generation):" + tag
        var removed = 0
        try scanBatches(["SSCAN", set], on: set) { members in
            let entries = keys.entries(namespace) + "\(generation):"
            let result = try run(
                .remove, keys: [keys.namespace(namespace), set] + members.map { entries + $0 },
                arguments: [
                    RedisArgument(keys.entries(namespace)), RedisArgument(keys.tags(namespace)),
                    RedisArgument(generation), RedisArgument(tag),
                ] + members.map { RedisArgument($0) })
            removed += Int(result.integer ?? 0)
            return true
        }
        _ = try redis(set) { connection in try connection.command(["UNLINK", RedisArgument(set)]) }
        return removed
    }

    /// Moves the namespace to a new generation at once, then unlinks the old one's keys.
    private func clearNamespace(_ namespace: String) throws -> Int {
        let reply = try run(
            .clear, keys: [keys.namespace(namespace), keys.retired(namespace)],
            arguments: [RedisArgument(RedisKeys.escape(namespace)), RedisArgument(now())])
        guard let generation = reply.integer, generation > 0 else { return 0 }
        generations.withLock { $0[keys.namespace(namespace)] = generation + 1 }
        return try unlinkGeneration(generation, of: namespace)
    }

    /// Unlinks every entry and tag set of `generation` of `namespace` in batches, then
    /// forgets it in the retired set. Returns how many entries it unlinked.
    /// One `SCAN` finds both (`<prefix>[et]:<ns>:<generation>:*`), on the namespace's node.
    func unlinkGeneration(_ generation: Int64, of namespace: String) throws -> Int {
        let pattern =
            RedisKeys.glob(keys.prefix) + "[et]:" + RedisKeys.glob(keys.segment(namespace) + ":\(generation):")
            + "*"
        let hash = keys.namespace(namespace)
        // Names stay bytes from SCAN to UNLINK: no text round trip per key, and a name that
        // is not UTF-8 under the generation goes too.
        let entryPrefix = Data(keys.entries(namespace).utf8)
        var removed = 0
        try scanRawBatches(["SCAN"], on: hash, pattern: pattern) { found in
            var entries: [RedisArgument] = ["UNLINK"]
            var tagSets: [RedisArgument] = ["UNLINK"]
            for name in found {
                if name.starts(with: entryPrefix) {
                    entries.append(RedisArgument(name))
                } else {
                    tagSets.append(RedisArgument(name))
                }
            }
            try redis(hash) { connection in
                if tagSets.count > 1 { try connection.command(tagSets) }
                if entries.count > 1 { removed += Int(try connection.command(entries).integer ?? 0) }
            }
            return true
        }
        let member = RedisKeys.escape(namespace) + ":\(generation)"
        let retired = keys.retired(namespace)
        _ = try redis(retired) { connection in
            try connection.command(["SREM", RedisArgument(retired), RedisArgument(member)])
        }
        return removed
    }

    /// Unlinks `found`, keys on `key`'s slot.
    private func unlink(_ found: [String], on key: String) throws -> Int {
        let reply = try redis(key) { connection in
            try connection.command(["UNLINK"] + found.map { RedisArgument($0) })
        }
        return Int(reply.integer ?? 0)
    }
}
