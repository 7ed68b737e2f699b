import CacheCore
import Foundation

/// Statistics of a ``RedisStore``: this process's counters, and every client's as written
/// under the prefix.
extension RedisStore {
    /// What this store counted since it opened or since `resetStatistics()`, per namespace.
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
            let counted = try redis(keys.clients) { connection in
                try RedisTelemetryReader.statistics(keys: keys, client: id, on: connection)
            }
            for (name, statistics) in counted { namespaces[name, default: .zero] += statistics }
        }
        return StoreStatistics(namespaces: namespaces)
    }

    /// The clients whose heartbeat hash is still on the server, oldest first, with whether
    /// each looks live (not stopped, a heartbeat within three intervals).
    public func clients() throws -> [CacheClient] {
        let now = now()
        let (clients, gone) = try redis(keys.clients) { connection in
            try RedisTelemetryReader.clients(keys: keys, now: now, on: connection)
        }
        // Heartbeat hashes that expired: their clients are forgotten (best effort).
        if !gone.isEmpty, !options.readOnly {
            _ = try? redis(keys.clients) { connection in
                try connection.command(["ZREM", RedisArgument(keys.clients)] + gone.map { RedisArgument($0) })
            }
        }
        return clients
    }
}
