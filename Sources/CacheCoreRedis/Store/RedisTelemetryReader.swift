import CacheCore
import Foundation

/// Reads the counters and heartbeats ``RedisTelemetry`` writes under a prefix: shared by
/// ``RedisStore`` (its ``RedisStore/clients()`` and ``RedisStore/sharedStatistics()``) and
/// ``RedisStoreInspector``. Read commands only (`ZRANGE`, `HMGET`, `SCAN`, `HGETALL`).
enum RedisTelemetryReader {
    /// The clients in the `clients` sorted set whose heartbeat hash is still there, oldest
    /// first, and the ids whose hash expired (a writer may forget them).
    static func clients(keys: RedisKeys, now: Int64, on connection: RedisConnection) throws -> (
        clients: [CacheClient], gone: [Int64]
    ) {
        let ids = try connection.command(["ZRANGE", RedisArgument(keys.clients), "0", "-1"])
        let found = (ids.array ?? []).compactMap(\.integer)
        guard !found.isEmpty else { return ([], []) }
        let replies = try connection.pipeline(
            found.map {
                [
                    "HMGET", RedisArgument(keys.client($0)), "host", "pid", "program", "started", "seen", "heartbeat",
                    "stopped",
                ]
            })
        var clients: [CacheClient] = []
        var gone: [Int64] = []
        for (id, reply) in zip(found, replies) {
            guard let fields = reply.array, fields.count == 7, let seen = fields[4].integer else {
                gone.append(id)
                continue
            }
            let heartbeat = fields[5].integer ?? 1000
            let stopped = fields[6].integer
            clients.append(
                CacheClient(
                    id: id, pid: Int32(truncatingIfNeeded: fields[1].integer ?? 0), host: fields[0].string ?? "",
                    program: fields[2].string ?? "",
                    startedAt: Date(millisecondsSince1970: fields[3].integer ?? seen),
                    lastSeen: Date(millisecondsSince1970: seen), heartbeatInterval: .milliseconds(heartbeat),
                    stoppedAt: stopped.map(Date.init(millisecondsSince1970:)),
                    isLive: stopped == nil && now.subtractingClamped(seen) <= max(heartbeat, 1) * 3))
        }
        return (clients, gone)
    }

    /// Client `id`'s counters per namespace, found by a `SCAN` of its counter hashes (1,000
    /// keys a call).
    static func statistics(keys: RedisKeys, client id: Int64, on connection: RedisConnection) throws -> [String:
        CacheStatistics]
    {
        let prefix = keys.statisticsPrefix(client: id)
        var namespaces: [String: CacheStatistics] = [:]
        try connection.scanAll(matching: RedisKeys.glob(prefix) + "*") { keys in
            let found = keys.compactMap { String(data: $0, encoding: .utf8) }
            let replies = try connection.pipeline(found.map { ["HGETALL", RedisArgument($0)] })
            for (key, reply) in zip(found, replies) {
                let name = RedisKeys.unescape(String(key.dropFirst(prefix.count)))
                var hash: [String: Int] = [:]
                let items = reply.array ?? []
                for index in stride(from: 0, to: items.count - 1, by: 2) {
                    if let field = items[index].string, let value = items[index + 1].integer {
                        hash[field] = Int(value)
                    }
                }
                namespaces[name, default: .zero] += RedisTelemetry.statistics(hash)
            }
        }
        return namespaces
    }

    /// Every client's counters for `namespace` (`nil`: every namespace together) per minute,
    /// for the minutes that start in `start..<end`, oldest first, without the minutes nobody
    /// counted in: one `HMGET` per minute, in one pipeline.
    static func minutes(
        keys: RedisKeys, namespace: String?, from start: Int64, until end: Int64, on connection: RedisConnection
    ) throws -> [(minute: Int64, counts: CacheStatistics)] {
        let width = RedisTelemetry.minute
        let first = start + ((width - start % width) % width)
        let minutes = Array(stride(from: first, to: end, by: Int(width)))
        guard !minutes.isEmpty else { return [] }
        let fields = RedisTelemetry.fields(.zero).map(\.0)
        let replies = try connection.pipeline(
            minutes.map { minute in
                ["HMGET" as RedisArgument, RedisArgument(keys.minuteStatistics(namespace: namespace, minute: minute))]
                    + fields.map { RedisArgument($0) }
            })
        var counted: [(minute: Int64, counts: CacheStatistics)] = []
        for (minute, reply) in zip(minutes, replies) {
            let values = reply.array ?? []
            var hash: [String: Int] = [:]
            for (field, value) in zip(fields, values) {
                if let number = value.integer { hash[field] = Int(number) }
            }
            if !hash.isEmpty { counted.append((minute, RedisTelemetry.statistics(hash))) }
        }
        return counted
    }
}
