import Foundation

extension CacheStore {
    /// What this store counted since it opened or since ``resetStatistics()``, per namespace
    /// and overall. Reading changes nothing (it reads memory, not the file).
    public func statistics() -> StoreStatistics {
        services.statistics.statistics()
    }

    /// Starts counting from zero again. Telemetry and swift-metrics, which report growth,
    /// are not affected.
    public func resetStatistics() {
        services.statistics.reset()
    }

    /// This store's id in ``clients()`` and telemetry's per-process series, once it has
    /// written its first heartbeat (one telemetry interval after opening, or at the first
    /// ``flushTelemetry()``).
    public var clientID: Int64? { services.reporter?.clientID }

    /// Writes what was counted since the last telemetry write, and the heartbeat, now
    /// rather than at the next interval. Does nothing when telemetry is off or read-only.
    public func flushTelemetry() throws {
        try services.reporter?.report()
    }

    /// The counters every process attached to the file wrote since `since`, summed in
    /// buckets of `resolution` (buckets already downsampled to something coarser keep their
    /// own size). Reads only, through the time index; works on a read-only store.
    public func telemetry(since: Date, resolution: Duration = .seconds(1)) throws -> Telemetry {
        let since = since.millisecondsSince1970
        let rows = try database.read { connection in
            try connection.readTransaction {
                var rows: [SQLiteConnection.StatsRow] = []
                var resolution = try connection.nextStatsResolution(after: 0)
                while let current = resolution {
                    rows += try connection.statsRows(resolution: current, since: since)
                    resolution = try connection.nextStatsResolution(after: current)
                }
                return rows
            }
        }
        return TelemetryBuilder(width: max(resolution.milliseconds, 1)).build(rows)
    }

    /// The processes that have attached to the file (and not been removed as stale by
    /// maintenance), oldest first, with whether each looks live. Reads only.
    public func clients() throws -> [CacheClient] {
        let rows = try database.read { try $0.clientRows() }
        let now = now()
        let host = ProcessIdentity.hostName
        return rows.map { row in
            let recent = now.subtractingClamped(row.lastSeen) <= max(row.heartbeatInterval, 1).multipliedClamped(by: 3)
            let running = row.host != host || ProcessIdentity.isRunning(pid: row.pid)
            return CacheClient(
                id: row.id, pid: row.pid, host: row.host, program: row.program,
                startedAt: Date(millisecondsSince1970: row.startedAt),
                lastSeen: Date(millisecondsSince1970: row.lastSeen),
                heartbeatInterval: .milliseconds(row.heartbeatInterval),
                stoppedAt: row.stoppedAt.map(Date.init(millisecondsSince1970:)),
                isLive: row.stoppedAt == nil && recent && running)
        }
    }

    /// The file's size, its WAL's, the bytes of the stored keys and values, and the free
    /// pages a compaction would give back (see ``CacheSize/compactableBytes``). Reads only.
    public func size() throws -> CacheSize {
        let (payload, free) = try database.read { (try $0.payloadBytes(), try $0.freePageBytes()) }
        return CacheSize(
            fileBytes: CacheSize.bytes(ofFileAt: path), walBytes: CacheSize.bytes(ofFileAt: path + "-wal"),
            payloadBytes: payload, freeBytes: free)
    }
}

extension Cache {
    /// What this store counted for this handle's namespace (every handle on it together)
    /// since it opened or since ``CacheStore/resetStatistics()``.
    public func statistics() -> CacheStatistics {
        counters.statistics()
    }
}
