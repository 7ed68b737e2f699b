import CacheCore
import Foundation

/// The audit log of a ``RedisStore``: one hash per action (`Paudit:<id>`), indexed by the
/// sorted set `Paudit`, both kept for `Admin/trashRetention` (docs/REDIS.md). An action's
/// record lists the namespaces it acts on; what it did in each is in that namespace's ledger
/// (`Pledger:<id>:<ns>`, in the namespace's slot), written by the same scripts that move or
/// change its entries, and the record's counts are their sum once it has finished.
struct RedisAuditLog {
    let store: RedisStore

    private var keys: RedisKeys { store.keys }
    private var retention: Int64 { Admin.trashRetention.milliseconds }

    /// The fields of one record, as stored.
    struct Fields {
        let values: [String: String]

        var at: Int64 { Int64(values["at"] ?? "") ?? 0 }
        var target: AdminTarget? {
            values["target"].flatMap { try? JSONDecoder().decode(AdminTarget.self, from: Data($0.utf8)) }
        }
        var restores: Int64? { values["restores"].flatMap { Int64($0) } }
        var finished: Int64? { values["finished"].flatMap { Int64($0) } }
        var undone: Int64? { values["undone"].flatMap { Int64($0) } }
        /// `pid@host` of the process undoing the action (absent when no undo is under way or
        /// finished; left behind by an undo that was killed or lost the server).
        var restoring: String? { values["restoring"] }
        var origin: ActionOrigin {
            ActionOrigin(
                user: values["user"] ?? "", host: values["host"] ?? "", pid: Int32(values["pid"] ?? "") ?? 0,
                program: values["program"] ?? "")
        }
        /// The generations a clear kept, by namespace (records written before ledgers).
        var cleared: [ClearedGeneration] {
            values["cleared"].flatMap { try? JSONDecoder().decode([ClearedGeneration].self, from: Data($0.utf8)) } ?? []
        }
        var samples: [String] {
            values["samples"].flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
        }
        /// The namespaces the action acts on, each with its ledger; `nil` for an undo and for
        /// records written before ledgers (their counts and `cleared` are in the record).
        var namespaces: [String]? {
            values["namespaces"].flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        }
    }

    /// What an action did in one namespace, as its ledger says.
    struct Ledger {
        let namespace: String
        let entries: Int
        let bytes: Int
        /// The generations a clear kept and started there.
        let cleared: ClearedGeneration?
        /// Whether an undo has finished this namespace.
        let isRestored: Bool
    }

    /// Starts the record of an action on `namespaces` (or of the undo of action `restores`);
    /// returns its id. Written by plain commands: a server past its `maxmemory` refuses it,
    /// and with it the action, before anything changes.
    func begin(
        _ target: AdminTarget?, namespaces: [String] = [], restores: Int64?, origin: ActionOrigin, now: Int64
    ) throws -> Int64 {
        let id = try AuditSequence(servers: store.servers, keys: keys).next()
        var fields: [RedisArgument] = [
            "at", RedisArgument(now), "user", RedisArgument(origin.user), "host", RedisArgument(origin.host),
            "pid", RedisArgument(Int(origin.pid)), "program", RedisArgument(origin.program), "entries", 0, "bytes", 0,
        ]
        if let target {
            fields += ["target", RedisArgument(try Self.json(target)), "namespaces", RedisArgument(try Self.json(namespaces))]
        }
        if let restores { fields += ["restores", RedisArgument(restores)] }
        try pipeline([
            ["HSET", RedisArgument(keys.audit(id))] + fields,
            ["PEXPIRE", RedisArgument(keys.audit(id)), RedisArgument(retention)],
            ["ZADD", RedisArgument(keys.auditIndex), RedisArgument(now), RedisArgument(id)],
            ["ZREMRANGEBYSCORE", RedisArgument(keys.auditIndex), "-inf", RedisArgument("(\(now - retention)")],
        ])
        return id
    }

    /// Sets fields of record `id` (even at `maxmemory`: see ``RedisScript/auditUpdate``).
    func set(_ id: Int64, _ fields: [(String, RedisArgument)]) throws {
        try update(id, fields.map { ("set", $0.0, $0.1) })
    }

    /// Adds to the counts of action `id`'s ledger in `namespace`.
    func add(_ id: Int64, namespace: String, entries: Int, bytes: Int) throws {
        try update(
            key: keys.ledger(id, namespace: namespace),
            [("add", "entries", RedisArgument(entries)), ("add", "bytes", RedisArgument(bytes))])
    }

    /// Notes in action `id`'s ledger in `namespace` that its undo has finished there.
    func markRestored(_ id: Int64, namespace: String, now: Int64) throws {
        try update(key: keys.ledger(id, namespace: namespace), [("set", "restored", RedisArgument(now))])
    }

    /// Removes `field` of record `id`.
    func clear(_ id: Int64, _ field: String) throws {
        try update(id, [("del", field, "")])
    }

    /// Applies `changes` (`set`, `add` or `del`, field, value) to record `id` in one step.
    func update(_ id: Int64, _ changes: [(String, String, RedisArgument)]) throws {
        try update(key: keys.audit(id), changes)
    }

    /// Applies `changes` to the record or ledger `key` in one step (nothing when it is gone).
    private func update(key: String, _ changes: [(String, String, RedisArgument)]) throws {
        guard !changes.isEmpty else { return }
        _ = try store.run(
            .auditUpdate, keys: [key], arguments: changes.flatMap { [RedisArgument($0.0), RedisArgument($0.1), $0.2] })
    }

    /// The ledgers of action `id` in `namespaces` (one read on each namespace's node); a
    /// namespace it changed nothing in has an empty one.
    func ledgers(_ id: Int64, namespaces: [String]) throws -> [Ledger] {
        try namespaces.map { name in
            let key = keys.ledger(id, namespace: name)
            let reply = try store.redis(key) { try $0.command(["HGETALL", RedisArgument(key)]) }
            let items = (reply.array ?? []).map { $0.string ?? "" }
            var values: [String: Int64] = [:]
            for index in stride(from: 0, to: items.count - 1, by: 2) { values[items[index]] = Int64(items[index + 1]) }
            let cleared = values["kept"].flatMap { kept in
                values["current"].map { ClearedGeneration(namespace: name, kept: kept, current: $0) }
            }
            return Ledger(
                namespace: name, entries: Int(clamping: values["entries"] ?? 0), bytes: Int(clamping: values["bytes"] ?? 0),
                cleared: cleared, isRestored: values["restored"] != nil)
        }
    }

    /// The generations action `id` (with `fields`) kept as a clear's trash, by namespace.
    func cleared(_ id: Int64, _ fields: Fields) throws -> [ClearedGeneration] {
        guard let namespaces = fields.namespaces else { return fields.cleared }
        return try ledgers(id, namespaces: namespaces).compactMap(\.cleared)
    }

    /// Marks record `id` as being undone by `claimant` (`pid@host`), taking it over from
    /// `previous` when given; returns `ok`, `gone`, `undone` or the claimant holding it.
    func claimUndo(_ id: Int64, by claimant: String, takingOver previous: String = "") throws -> String {
        try store.run(
            .claimUndo, keys: [keys.audit(id)], arguments: [RedisArgument(claimant), RedisArgument(previous)]
        ).string ?? ""
    }

    /// Record `id`'s fields, or `nil` when there is none (never, or past the retention).
    func fields(_ id: Int64, now: Int64) throws -> Fields? {
        try fields([id], now: now).first ?? nil
    }

    /// The newest `limit` records, newest first.
    func records(limit: Int, now: Int64) throws -> [AuditRecord] {
        guard limit > 0 else { return [] }
        let reply = try store.redis(keys.auditIndex) { connection in
            try connection.command([
                "ZREVRANGEBYSCORE", RedisArgument(keys.auditIndex), "+inf", RedisArgument(now - retention),
                "LIMIT", 0, RedisArgument(limit),
            ])
        }
        let ids = (reply.array ?? []).compactMap(\.integer)
        return try zip(ids, try fields(ids, now: now)).compactMap { id, fields in
            try fields.map { try record(id, $0, now: now) }
        }
    }

    /// Record `id`, or `nil` when it is gone or past the retention.
    func record(_ id: Int64, now: Int64) throws -> AuditRecord? {
        try fields([id], now: now).first.flatMap { try $0.map { try record(id, $0, now: now) } }
    }

    /// The fields of each record of `ids` (`nil` where gone or past the retention).
    private func fields(_ ids: [Int64], now: Int64) throws -> [Fields?] {
        guard !ids.isEmpty else { return [] }
        let replies = try store.redis(keys.auditIndex) { connection in
            try connection.pipeline(ids.map { ["HGETALL", RedisArgument(keys.audit($0))] })
        }
        return replies.map { reply in
            let items = (reply.array ?? []).map { $0.string ?? "" }
            guard items.count >= 2 else { return nil }
            var values: [String: String] = [:]
            for index in stride(from: 0, to: items.count - 1, by: 2) { values[items[index]] = items[index + 1] }
            let fields = Fields(values: values)
            return fields.at >= now - retention ? fields : nil
        }
    }

    /// The record as listed. An action that has not finished (running, or killed) says what
    /// its ledgers say; a clear whose process ended before it finished counting says what its
    /// trash holds: its kept generations are counted now.
    private func record(_ id: Int64, _ fields: Fields, now: Int64) throws -> AuditRecord {
        let target = fields.target
        var counts = (entries: Int(fields.values["entries"] ?? "") ?? 0, bytes: Int(fields.values["bytes"] ?? "") ?? 0)
        if fields.finished == nil {
            let counted = fields.undone == nil && !fields.origin.isRunning
            if let namespaces = fields.namespaces {
                counts = (0, 0)
                for ledger in try ledgers(id, namespaces: namespaces) {
                    let held =
                        if let cleared = ledger.cleared, counted {
                            try RedisAdmin(store: store).held([cleared])
                        } else {
                            (entries: ledger.entries, bytes: ledger.bytes)
                        }
                    counts = (counts.entries + held.entries, counts.bytes + held.bytes)
                }
            } else if !fields.cleared.isEmpty && counted {
                counts = try RedisAdmin(store: store).held(fields.cleared)
            }
        }
        return AuditRecord(
            id: id, at: fields.at, origin: fields.origin, target: target, restoredAuditID: fields.restores,
            entries: counts.entries, bytes: counts.bytes,
            undoneAt: fields.undone, canUndo: target?.isUndoable == true && fields.undone == nil,
            sampleKeys: fields.samples, finishedAt: fields.finished)
    }

    private func pipeline(_ commands: [[RedisArgument]]) throws {
        // Every audit key is store-wide: one slot on a cluster.
        let replies = try store.redis(keys.auditIndex) { try $0.pipeline(commands) }
        for case .error(let message) in replies {
            throw CacheError(RedisError(serverMessage: message, endpoint: store.endpoint), endpoint: store.endpoint)
        }
    }

    static func json<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A generation a clear kept as its trash: the namespace, the generation it emptied (kept)
/// and the one it started (current until the undo).
struct ClearedGeneration: Codable, Sendable {
    let namespace: String
    let kept: Int64
    let current: Int64
}
