import Foundation

/// Statistics of a ``RedisStore``: this process's counters, and every client's as written
/// under the prefix.
extension RedisStore {
    /// What this store counted since it opened or since ``resetStatistics()``, per namespace.
    public func statistics() -> StoreStatistics { registry.statistics() }

    /// Starts counting from zero again (what was written to the server is not affected).
    public func resetStatistics() { registry.reset() }

    /// This store's id among the server's clients (`nil` when telemetry is off).
    public var clientID: Int64? { telemetry?.clientID }

    /// Writes what was counted since the last write, and the heartbeat, now rather than at
    /// the next interval. Does nothing when telemetry is off.
    public func flushTelemetry() throws {
        try Self.mapping(endpoint) { try telemetry?.report() }
    }

    /// Every client's counters written to the server, summed per namespace: what the
    /// console shows for all hosts together.
    public func sharedStatistics() throws -> StoreStatistics {
        let clients = try clients().map(\.id)
        var namespaces: [String: CacheStatistics] = [:]
        for id in clients {
            try scan(matching: keys.statisticsPrefix(client: id), suffix: "*") { found in
                let replies = try redis { connection in
                    try connection.pipeline(found.map { ["HGETALL", RedisArgument($0)] })
                }
                for (key, reply) in zip(found, replies) {
                    let name = RedisKeys.unescape(String(key.dropFirst(keys.statisticsPrefix(client: id).count)))
                    var hash: [String: Int] = [:]
                    let items = reply.array ?? []
                    for index in stride(from: 0, to: items.count - 1, by: 2) {
                        if let field = items[index].string, let value = items[index + 1].integer {
                            hash[field] = Int(value)
                        }
                    }
                    namespaces[name, default: .zero] += RedisTelemetry.statistics(hash)
                }
                return 0
            }
        }
        return StoreStatistics(namespaces: namespaces)
    }

    /// The clients whose heartbeat hash is still on the server, oldest first, with whether
    /// each looks live (not stopped, a heartbeat within three intervals).
    public func clients() throws -> [CacheClient] {
        let ids = try redis { connection in
            try connection.command(["ZRANGE", RedisArgument(keys.clients), "0", "-1"])
        }
        let found = (ids.array ?? []).compactMap(\.integer)
        guard !found.isEmpty else { return [] }
        let replies = try redis { connection in
            try connection.pipeline(
                found.map {
                    [
                        "HMGET", RedisArgument(keys.client($0)), "host", "pid", "program", "started", "seen",
                        "heartbeat", "stopped",
                    ]
                })
        }
        let now = now()
        var clients: [CacheClient] = []
        var gone: [Int64] = []
        defer {
            // Heartbeat hashes that expired: their clients are forgotten (best effort).
            if !gone.isEmpty, !options.readOnly {
                _ = try? redis { connection in
                    try connection.command(["ZREM", RedisArgument(keys.clients)] + gone.map { RedisArgument($0) })
                }
            }
        }
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
        return clients
    }
}
