import CacheCore
import Foundation

/// The log of keyspace deletions: one hash per deletion (`…{%log}record:<id>`: `at`, `user`,
/// `host`, `pid`, `program`, `target`, `entries`, `bytes`, `samples`, `finished`, `undone`,
/// `restored`), indexed by the sorted set `…{%log}index`, both kept for the retention.
struct KeyTrashLog {
    let keys: KeyTrashKeys
    let servers: RedisServers
    let endpoint: String

    /// How long records and trash are kept (as a store's actions: 7 days).
    static var retention: Int64 { Admin.trashRetention.milliseconds }

    /// Starts the record of a deletion of `target`; returns its id.
    func begin(_ target: AdminTarget, samples: [String], origin: ActionOrigin, now: Int64) throws -> Int64 {
        let id = try command(["INCR", RedisArgument(keys.sequence)]).integer ?? 0
        let record = keys.record(id)
        try pipeline([
            [
                "HSET", RedisArgument(record), "at", RedisArgument(now), "user", RedisArgument(origin.user), "host",
                RedisArgument(origin.host), "pid", RedisArgument(Int(origin.pid)), "program",
                RedisArgument(origin.program), "entries", 0, "bytes", 0, "target", RedisArgument(try Self.json(target)),
                "samples", RedisArgument(try Self.json(samples)),
            ],
            ["PEXPIRE", RedisArgument(record), RedisArgument(Self.retention)],
            ["ZADD", RedisArgument(keys.index), RedisArgument(now), RedisArgument(id)],
            ["ZREMRANGEBYSCORE", RedisArgument(keys.index), "-inf", RedisArgument("(\(now - Self.retention)")],
        ])
        return id
    }

    /// Adds a batch to record `id`'s counts.
    func add(_ id: Int64, entries: Int, bytes: Int) throws {
        try pipeline([
            ["HINCRBY", RedisArgument(keys.record(id)), "entries", RedisArgument(entries)],
            ["HINCRBY", RedisArgument(keys.record(id)), "bytes", RedisArgument(bytes)],
        ])
    }

    /// Sets `field` of record `id` to `value`.
    func set(_ id: Int64, _ field: String, _ value: Int64) throws {
        try pipeline([["HSET", RedisArgument(keys.record(id)), RedisArgument(field), RedisArgument(value)]])
    }

    /// The newest `limit` records (or only record `id`), newest first; those past the
    /// retention are left out.
    func records(limit: Int, id: Int64? = nil, now: Int64) throws -> [AuditRecord] {
        guard limit > 0 else { return [] }
        let ids: [Int64]
        if let id {
            ids = [id]
        } else {
            let reply = try command([
                "ZREVRANGEBYSCORE", RedisArgument(keys.index), "+inf", RedisArgument(now - Self.retention), "LIMIT", 0,
                RedisArgument(limit),
            ])
            ids = (reply.array ?? []).compactMap(\.integer)
        }
        guard !ids.isEmpty else { return [] }
        let replies = try RedisStore.mapping(endpoint) {
            try servers.withConnection(forKey: keys.index) { connection in
                try connection.pipeline(ids.map { ["HGETALL", RedisArgument(keys.record($0))] })
            }
        }
        return zip(ids, replies).compactMap { id, reply in
            let items = (reply.array ?? []).map { $0.string ?? "" }
            var values: [String: String] = [:]
            for index in stride(from: 0, to: items.count - 1, by: 2) { values[items[index]] = items[index + 1] }
            return Self.record(id, values, now: now)
        }
    }

    /// A record's fields as an ``AuditRecord`` (`nil` when it has none, or is past the retention).
    private static func record(_ id: Int64, _ values: [String: String], now: Int64) -> AuditRecord? {
        func number(_ field: String) -> Int64? { values[field].flatMap { Int64($0) } }
        guard let at = number("at"), at >= now - retention else { return nil }
        let target = values["target"].flatMap { try? JSONDecoder().decode(AdminTarget.self, from: Data($0.utf8)) }
        let samples = values["samples"].flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        return AuditRecord(
            id: id, at: at,
            origin: ActionOrigin(
                user: values["user"] ?? "", host: values["host"] ?? "", pid: Int32(clamping: number("pid") ?? 0),
                program: values["program"] ?? ""),
            target: target, restoredAuditID: nil, entries: Int(clamping: number("entries") ?? 0),
            bytes: Int(clamping: number("bytes") ?? 0), undoneAt: number("undone"),
            canUndo: target != nil && number("undone") == nil, sampleKeys: samples ?? [], finishedAt: number("finished"))
    }

    private func command(_ arguments: [RedisArgument]) throws -> RedisReply {
        try RedisStore.mapping(endpoint) {
            try servers.withConnection(forKey: keys.index) { try $0.command(arguments) }
        }
    }

    private func pipeline(_ commands: [[RedisArgument]]) throws {
        let replies = try RedisStore.mapping(endpoint) {
            try servers.withConnection(forKey: keys.index) { try $0.pipeline(commands) }
        }
        for case .error(let message) in replies {
            throw CacheError(RedisError(serverMessage: message, endpoint: endpoint), endpoint: endpoint)
        }
    }

    static func json<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
