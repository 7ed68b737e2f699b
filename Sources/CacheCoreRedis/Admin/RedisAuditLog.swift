import CacheCore
import Foundation

/// The audit log of a ``RedisStore``: one hash per action (`Paudit:<id>`), indexed by the
/// sorted set `Paudit`, both kept for `Admin/trashRetention` (docs/REDIS.md).
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
        /// The generations a clear kept, by namespace.
        var cleared: [ClearedGeneration] {
            values["cleared"].flatMap { try? JSONDecoder().decode([ClearedGeneration].self, from: Data($0.utf8)) } ?? []
        }
        var samples: [String] {
            values["samples"].flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
        }
    }

    /// Starts the record of an action (or of the undo of action `restores`); returns its id.
    func begin(_ target: AdminTarget?, restores: Int64?, origin: ActionOrigin, now: Int64) throws -> Int64 {
        let id = try store.redis(keys.auditSequence) { try $0.command(["INCR", RedisArgument(keys.auditSequence)]) }.integer ?? 0
        var fields: [RedisArgument] = [
            "at", RedisArgument(now), "user", RedisArgument(origin.user), "host", RedisArgument(origin.host),
            "pid", RedisArgument(Int(origin.pid)), "program", RedisArgument(origin.program), "entries", 0, "bytes", 0,
        ]
        if let target { fields += ["target", RedisArgument(try Self.json(target))] }
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

    /// Adds to record `id`'s counts.
    func add(_ id: Int64, entries: Int, bytes: Int) throws {
        try update(id, [("add", "entries", RedisArgument(entries)), ("add", "bytes", RedisArgument(bytes))])
    }

    /// Removes `field` of record `id`.
    func clear(_ id: Int64, _ field: String) throws {
        try update(id, [("del", field, "")])
    }

    /// Applies `changes` (`set`, `add` or `del`, field, value) to record `id` in one step.
    func update(_ id: Int64, _ changes: [(String, String, RedisArgument)]) throws {
        guard !changes.isEmpty else { return }
        _ = try store.run(
            .auditUpdate, keys: [keys.audit(id)],
            arguments: changes.flatMap { [RedisArgument($0.0), RedisArgument($0.1), $0.2] })
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

    /// The record as listed. A clear whose process ended before it finished counting says
    /// what its trash holds: its kept generations are counted now.
    private func record(_ id: Int64, _ fields: Fields, now: Int64) throws -> AuditRecord {
        let target = fields.target
        var counts = (entries: Int(fields.values["entries"] ?? "") ?? 0, bytes: Int(fields.values["bytes"] ?? "") ?? 0)
        if !fields.cleared.isEmpty && fields.finished == nil && fields.undone == nil && !fields.origin.isRunning {
            counts = try RedisAdmin(store: store).held(fields.cleared)
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
