import CacheCore
import Foundation

/// The log of keyspace deletions: one hash per deletion (`…{%log}record:<id>`: `at`, `user`,
/// `host`, `pid`, `program`, `target`, `entries`, `bytes`, `samples`, `ledgers`, `finished`,
/// `undone`, `restored`), indexed by the sorted set `…{%log}index`, both kept for the retention.
///
/// What a deletion moved is counted in its per-slot ledgers (``KeyTrashKeys/ledger(_:slot:)``)
/// by the script that moves the keys, so a record counts exactly what its trash holds, even
/// when its process was killed between batches: until it has finished (`entries` and `bytes`
/// then hold the sum) it shows the sum of the ledgers of the slots it names
/// (``KeyTrashKeys/slots(_:)``). Records written before ledgers (no `ledgers` field) hold
/// their counts.
struct KeyTrashLog {
    let keys: KeyTrashKeys
    /// Where ids come from: the store's audit sequence under the same prefix, so a
    /// deletion's id is never a store action's (both logs are listed together).
    let sequence: AuditSequence
    let servers: RedisServers
    let endpoint: String

    /// How long records and trash are kept (as a store's actions: 7 days).
    static var retention: Int64 { Admin.trashRetention.milliseconds }

    /// Starts the record of a deletion of `target`; returns its id.
    func begin(_ target: AdminTarget, samples: [String], origin: ActionOrigin, now: Int64) throws -> Int64 {
        let id = try sequence.next()
        let record = keys.record(id)
        try pipeline([
            [
                "HSET", RedisArgument(record), "at", RedisArgument(now), "user", RedisArgument(origin.user), "host",
                RedisArgument(origin.host), "pid", RedisArgument(Int(origin.pid)), "program",
                RedisArgument(origin.program), "entries", 0, "bytes", 0, "target", RedisArgument(try Self.json(target)),
                "samples", RedisArgument(try Self.json(samples)), "ledgers", 1,
            ],
            ["PEXPIRE", RedisArgument(record), RedisArgument(Self.retention)],
            ["ZADD", RedisArgument(keys.index), RedisArgument(now), RedisArgument(id)],
            ["ZREMRANGEBYSCORE", RedisArgument(keys.index), "-inf", RedisArgument("(\(now - Self.retention)")],
        ])
        return id
    }

    /// Names `slots` as slots deletion `id` moves keys in (before it moves them).
    func touch(_ id: Int64, slots: some Collection<Int>) throws {
        guard !slots.isEmpty else { return }
        try pipeline([
            ["SADD", RedisArgument(keys.slots(id))] + slots.map { RedisArgument($0) },
            ["PEXPIRE", RedisArgument(keys.slots(id)), RedisArgument(Self.retention)],
        ])
    }

    /// Marks deletion `id` finished with what its ledgers count; returns those counts.
    @discardableResult
    func finish(_ id: Int64, now: Int64) throws -> (entries: Int, bytes: Int) {
        let counts = try ledgers(id)
        try pipeline([
            [
                "HSET", RedisArgument(keys.record(id)), "entries", RedisArgument(counts.entries), "bytes",
                RedisArgument(counts.bytes), "finished", RedisArgument(now),
            ]
        ])
        return counts
    }

    /// The sum of deletion `id`'s ledgers in the slots it names.
    private func ledgers(_ id: Int64) throws -> (entries: Int, bytes: Int) {
        let slots = try self.slots(id)
        var counts = (entries: 0, bytes: 0)
        for start in stride(from: 0, to: slots.count, by: 1000) {
            let ledgers = slots[start..<min(start + 1000, slots.count)].map { keys.ledger(id, slot: $0) }
            let replies = try RedisStore.mapping(endpoint) {
                try servers.pipeline(ledgers.map { (Data($0.utf8), ["HMGET", RedisArgument($0), "entries", "bytes"]) })
            }
            for reply in replies {
                let values = (reply.array ?? []).map { $0.string.flatMap { Int($0) } ?? 0 }
                guard values.count == 2 else { continue }
                counts = (counts.entries.addingClamped(max(0, values[0])), counts.bytes.addingClamped(max(0, values[1])))
            }
        }
        return counts
    }

    /// The slots deletion `id` names (``KeyTrashKeys/slots(_:)``): where its trash is.
    func slots(_ id: Int64) throws -> [Int] {
        var slots: [Int] = []
        try RedisStore.mapping(endpoint) {
            try servers.withConnection(forKey: keys.index) { connection in
                var cursor = "0"
                var calls = 0
                let limit = try ScanLimit(on: connection, set: keys.slots(id))
                repeat {
                    try limit.check(calls, endpoint: connection.endpoint.description)
                    calls += 1
                    let reply = try connection.command(["SSCAN", RedisArgument(keys.slots(id)), RedisArgument(cursor), "COUNT", 1000])
                    guard let parts = reply.array, parts.count == 2, let next = parts[0].string else {
                        throw RedisError.server("SSCAN gave an unexpected reply")
                    }
                    cursor = next
                    slots += (parts[1].array ?? []).compactMap { $0.string.flatMap { Int($0) } }
                        .filter { (0..<ClusterSlot.count).contains($0) }
                } while cursor != "0"
            }
        }
        return slots
    }

    /// Whether record `id` was written with ledgers, naming the slots of its trash (records
    /// from before do not: their trash is found by a `SCAN` of every primary).
    func namesSlots(_ id: Int64) throws -> Bool {
        try command(["HEXISTS", RedisArgument(keys.record(id)), "ledgers"]).integer == 1
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
        return try zip(ids, replies).compactMap { id, reply in
            let items = (reply.array ?? []).map { $0.string ?? "" }
            var values: [String: String] = [:]
            for index in stride(from: 0, to: items.count - 1, by: 2) { values[items[index]] = items[index + 1] }
            return try record(id, values, now: now)
        }
    }

    /// A record's fields as an ``AuditRecord`` (`nil` when it has none, or is past the
    /// retention); one that has not finished counts its ledgers.
    private func record(_ id: Int64, _ values: [String: String], now: Int64) throws -> AuditRecord? {
        func number(_ field: String) -> Int64? { values[field].flatMap { Int64($0) } }
        guard let at = number("at"), at >= now - Self.retention else { return nil }
        let counts =
            if number("finished") == nil && values["ledgers"] != nil {
                try ledgers(id)
            } else {
                (entries: Int(clamping: number("entries") ?? 0), bytes: Int(clamping: number("bytes") ?? 0))
            }
        let target = values["target"].flatMap { try? JSONDecoder().decode(AdminTarget.self, from: Data($0.utf8)) }
            .map { target in
                // Written before `deleteKeys`: the same selector as an `invalidate`.
                if case .invalidate(let selector) = target { AdminTarget.deleteKeys(selector) } else { target }
            }
        let samples = values["samples"].flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        return AuditRecord(
            id: id, at: at,
            origin: ActionOrigin(
                user: values["user"] ?? "", host: values["host"] ?? "", pid: Int32(clamping: number("pid") ?? 0),
                program: values["program"] ?? ""),
            target: target, restoredAuditID: nil, entries: counts.entries, bytes: counts.bytes, undoneAt: number("undone"),
            canUndo: target != nil && number("undone") == nil, sampleKeys: samples ?? [], finishedAt: number("finished"))
    }

    /// The reply to `arguments` on the log's node.
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
