import CacheCore
import Foundation

/// Reading and writing entries: the `CacheBackend` calls a handle makes past its memory tier.
extension RedisStore {
    /// Entries per write script call, so one big `set` does not hold the server for long.
    static let writeBatch = 500

    /// Reads the namespace's record and the entry under the generation last seen in one
    /// round trip, two `HMGET`s and no script: the entry read second is the one of the
    /// generation the record named, or (after a clear or version change in between) of the
    /// generation that was current until then, which nobody writes since. Only when the
    /// generation moved, or a cluster redirected either command, the read script runs.
    package func lookup(_ key: String, in runtime: NamespaceRuntime) throws -> StoredEntry? {
        let policy = runtime.record.policy
        let version = policy.version
        let names = namespaceKeys.of(runtime.name, policy: policy)
        let generation = generationGuess(names.namespace)
        let replies = try redis(names.namespace) { connection in
            try connection.pipeline([
                ["HMGET", RedisArgument(names.namespace), "version", "generation"],
                ["HMGET", RedisArgument(names.entries + "\(generation):" + key), "v", "c", "x", "s", "t"],
            ])
        }
        if let record = replies[0].array, record.count == 2, replies[1].array != nil {
            guard record[0].string == version, let current = record[1].integer else { return nil }
            if current == generation { return Self.entry(replies[1], version: version) }
            generations.withLock { $0[names.namespace] = current }
        }
        let reply = try run(
            .read, keys: [names.namespace, names.entries + "\(generationGuess(names.namespace)):" + key],
            arguments: [RedisArgument(names.entries), RedisArgument(version), RedisArgument(key)])
        return Self.entry(reply, version: version)
    }

    /// The entry an `HMGET … v c x s t` (or the read script) answered; `nil` when absent.
    private static func entry(_ reply: RedisReply, version: String) -> StoredEntry? {
        guard let fields = reply.array, fields.count == 5, let value = fields[0].data,
            let created = fields[1].integer
        else { return nil }
        return StoredEntry(
            id: 0, value: value, createdAt: created, expiresAt: fields[2].integer, staleUntil: fields[3].integer,
            version: version, tagsJSON: fields[4].string)
    }

    /// Nothing to record: Redis expires entries itself, and per-key hit counts are not kept.
    package func recordRead(_ entry: StoredEntry, now: Int64) {}

    package func write(_ rows: [EntryWrite], in runtime: NamespaceRuntime, committed: () -> Void) throws {
        guard !options.readOnly else { throw CacheError.readOnly(path: endpoint) }
        let policy = runtime.record.policy
        let names = namespaceKeys.of(runtime.name, policy: policy)
        let writer = RedisArgument(telemetry?.clientID ?? 0)
        // The policy JSON goes only when the script asks for it (the namespace hash is gone).
        let fixed: [RedisArgument] = [
            RedisArgument(names.entries), RedisArgument(names.tags), RedisArgument(policy.version), "",
        ]
        let now = now()
        let pushesBefore = coherence.withLock { $0 }
        for start in stride(from: 0, to: rows.count, by: Self.writeBatch) {
            var arguments = fixed
            let generation = generationGuess(names.namespace)
            var declared = [names.namespace]
            for row in rows[start..<min(start + Self.writeBatch, rows.count)] {
                declared.append(names.entries + "\(generation):" + row.key)
                declared += row.attributes.tags.map { names.tags + "\(generation):" + $0 }
                let attributes = row.attributes
                // Redis deletes the key when its stale window ends; an entry written already
                // past it still replaces the old value, for a millisecond.
                let ttl = attributes.staleUntil.map { max(1, $0.subtractingClamped(now)) }
                // The key, its PEXPIRE, its tags, how many arguments follow, then its fields.
                let count = arguments.count + 3
                arguments += [
                    RedisArgument(row.key), ttl.map { RedisArgument($0) } ?? "", RedisArgument(attributes.tagsJSON ?? ""),
                    "", "v", RedisArgument(row.value), "c", RedisArgument(row.writtenAt), "w", writer,
                ]
                if let expires = attributes.expiresAt { arguments += ["x", RedisArgument(expires)] }
                if let staleUntil = attributes.staleUntil { arguments += ["s", RedisArgument(staleUntil)] }
                arguments[count] = RedisArgument(arguments.count - count - 1)
            }
            var reply = try run(.write, keys: declared, arguments: arguments)
            if reply.array?.first?.string == "policy" {
                // The namespace hash is gone (flushed, or never made): listed first, then made.
                try listNamespace(runtime.name)
                arguments[3] = RedisArgument(names.policyJSON)
                reply = try run(.write, keys: declared, arguments: arguments)
            }
            guard reply.array?.first?.integer == 1 else {
                warnTakenOver(runtime, by: reply.array?.dropFirst().first?.string ?? "?")
                return
            }
        }
        // A push that arrived while the write was on the wire may be another host's later
        // write of the same key (applied before this one's memory copy would be): then the
        // copy is not kept, and any older one goes. The store's own write comes back as a
        // push too, so a kept copy lasts until that push arrives (never stale, at worst a miss).
        coherence.withLock { pushes in
            if pushes == pushesBefore || runtime.memory == nil {
                committed()
            } else {
                for row in rows { runtime.memory?.remove(row.key) }
            }
        }
    }

    /// Live entries of the namespace's current generation: a `SCAN` of its keys (the whole
    /// keyspace of its node is walked, 1,000 keys a call) reading each entry's expiry.
    package func liveCount(of namespace: NamespaceRecord, runtime: NamespaceRuntime, now: Int64) throws -> Int {
        guard let generation = try currentGeneration(of: namespace.name, version: namespace.policy.version) else {
            return 0
        }
        var live = 0
        // SCAN may return a key twice (while the server rehashes), and a key may go between
        // the SCAN and the read: each is counted once, and only while its entry exists.
        var seen = Set<String>()
        let hash = keys.namespace(namespace.name)
        try scan(on: hash, matching: keys.entries(namespace.name) + "\(generation):", suffix: "*") { batch in
            let fresh = batch.filter { seen.insert($0).inserted }
            let replies = try redis(hash) { connection in
                try connection.pipeline(fresh.map { ["HMGET", RedisArgument($0), "c", "x"] })
            }
            for reply in replies {
                guard let fields = reply.array, fields.count == 2, fields[0] != .null else { continue }
                if let expires = fields[1].integer, now >= expires { continue }
                live += 1
            }
            return 0
        }
        return live
    }

    /// Refused: counting reads per key would write on every read (and push an invalidation
    /// to every host's near cache).
    package func hitCount(of key: String, in namespace: NamespaceRecord) throws -> Int? {
        throw CacheError.unsupported(
            feature: "hitCount(for:) on Redis",
            reason: "reads are not written back per key; see statistics() and sharedStatistics() for hit rates")
    }

    /// The namespace's generation when it is at `version` (`nil` when absent or another version owns it).
    func currentGeneration(of name: String, version: String) throws -> Int64? {
        let hash = keys.namespace(name)
        let reply = try redis(hash) { connection in
            try connection.command(["HMGET", RedisArgument(hash), "version", "generation"])
        }
        guard let fields = reply.array, fields.count == 2, fields[0].string == version else { return nil }
        return fields[1].integer
    }

    /// `SCAN`s the keys starting with `start` (matched literally) followed by the glob
    /// `suffix` on the node serving `key` (keys of its slot, on a cluster), calling `body` with
    /// each non-empty batch; returns the sum of what it returned.
    @discardableResult
    func scan(on key: String, matching start: String, suffix: String, _ body: ([String]) throws -> Int) throws -> Int {
        try scan(on: key, pattern: RedisKeys.glob(start) + suffix, body)
    }

    /// `SCAN`s the keys matching the glob `pattern`, as `scan(on:matching:suffix:_:)`.
    @discardableResult
    func scan(on key: String, pattern: String, _ body: ([String]) throws -> Int) throws -> Int {
        var total = 0
        try scanBatches(["SCAN"], on: key, pattern: pattern) { found in
            total += try body(found)
            return true
        }
        return total
    }

    /// Runs a cursor command (`["SCAN"]`, `["SSCAN", set]`) to its end on the node serving
    /// `key`, 1,000 a call (matching the glob `pattern` when given), calling `body` with each
    /// non-empty batch until it returns `false`. Returns whether it reached the end. Names that
    /// are not UTF-8 cannot be CacheCore's and are left out (`scanRawBatches(_:on:pattern:_:)`
    /// has them all).
    @discardableResult
    func scanBatches(_ command: [String], on key: String, pattern: String? = nil, _ body: ([String]) throws -> Bool)
        throws -> Bool
    {
        try scanRawBatches(command, on: key, pattern: pattern) { found in
            let names = found.compactMap { String(data: $0, encoding: .utf8) }
            return names.isEmpty ? true : try body(names)
        }
    }

    /// `scanBatches(_:on:pattern:_:)` with the names as the server sent them.
    @discardableResult
    func scanRawBatches(_ command: [String], on key: String, pattern: String? = nil, _ body: ([Data]) throws -> Bool)
        throws -> Bool
    {
        var cursor = "0"
        let match: [RedisArgument] = pattern.map { ["MATCH", RedisArgument($0)] } ?? []
        let limit = ScanLimit(keysInDatabase: try redis(key) { try $0.command(["DBSIZE"]) }.integer)
        var calls = 0
        repeat {
            let reply = try redis(key) { connection in
                try limit.check(calls, endpoint: endpoint)
                return try connection.command(
                    command.map { RedisArgument($0) } + [RedisArgument(cursor)] + match + ["COUNT", 1000])
            }
            calls += 1
            guard let parts = reply.array, parts.count == 2, let next = parts[0].string else {
                throw CacheError.serverError(endpoint: endpoint, message: "\(command[0]) answered \(reply)")
            }
            cursor = next
            let found = (parts[1].array ?? []).compactMap(\.data)
            if !found.isEmpty, try !body(found) { return false }
        } while cursor != "0"
        return true
    }
}
