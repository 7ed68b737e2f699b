import Foundation

extension Inspector {
    /// The file's sizes, format and totals, the processes attached to it, and what they did
    /// in the last minute: a few pragmas, the namespaces' counters, the `clients` table and
    /// the last minute of telemetry; no entry is read.
    public func summary() throws -> StoreSummary {
        let now = store.now()
        let path = store.path
        let isReadOnly = store.isReadOnly
        let fileBytes = Self.fileSize(path)
        let walBytes = Self.fileSize(path + "-wal")
        let (figures, recent) = try store.database.read { connection in
            try connection.readTransaction {
                let figures = try connection.storeFigures()
                return (figures, try Self.recentCounts(now: now, on: connection).values.reduce(.zero, +))
            }
        }
        return StoreSummary(
            path: path, now: now, formatVersion: figures.formatVersion, isReadOnly: isReadOnly, fileBytes: fileBytes,
            walBytes: walBytes, pageSize: figures.pageSize, pageCount: figures.pageCount,
            freelistCount: figures.freelistCount, namespaceCount: figures.namespaceCount,
            entryCount: figures.entryCount,
            payloadBytes: Int64(figures.payloadBytes),
            processes: try processes(), lastMinute: Self.recentActivity(recent, now: now))
    }

    /// Every namespace, by name, with its last minute of telemetry. Each costs a few index
    /// probes plus a count of its expired entries (proportional to those, not to the
    /// namespace), all in one snapshot.
    public func namespaces() throws -> [NamespaceSummary] {
        let now = store.now()
        return try store.database.read { connection in
            try connection.readTransaction {
                let recent = try Self.recentCounts(now: now, on: connection)
                return try connection.namespaceRecords(named: nil).map {
                    try $0.summary(now: now, recent: recent[$0.name] ?? .zero, on: connection)
                }
            }
        }
    }

    /// The namespace called `name`.
    ///
    /// - Throws: ``InspectorError/noSuchNamespace(_:)`` when the file has none of that name.
    public func namespace(_ name: String) throws -> NamespaceSummary {
        let now = store.now()
        return try store.database.read { connection in
            try connection.readTransaction {
                guard let record = try connection.namespaceRecords(named: name).first else {
                    throw InspectorError.noSuchNamespace(name)
                }
                let recent = try Self.recentCounts(now: now, on: connection)[name] ?? .zero
                return try record.summary(now: now, recent: recent, on: connection)
            }
        }
    }

    private static func fileSize(_ path: String) -> Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }
}

extension NamespaceRecordRow {
    private static let policyDecoder = JSONDecoder()

    /// The summary, with the counts and times that need the entries' indexes and the last
    /// minute's telemetry counters `recent`.
    func summary(now: Int64, recent: CacheStatistics, on connection: SQLiteConnection) throws -> NamespaceSummary {
        let expired = try connection.countExpired(namespaceID: id, now: now)
        return NamespaceSummary(
            name: name, entryCount: entryCount, expiredEntryCount: expired,
            liveEntryCount: entryCount.subtractingClamped(expired),
            bytes: bytes, version: version, generation: generation,
            policy: try? Self.policyDecoder.decode(NamespacePolicy.self, from: Data(policyJSON.utf8)),
            policyJSON: policyJSON, createdAt: createdAt, updatedAt: updatedAt, lastMinute: Inspector.recentActivity(recent, now: now))
    }
}
