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
        let (totals, recent) = try store.database.read { connection in
            try connection.readTransaction {
                let totals =
                    try connection.withStatement(
                        """
                        SELECT (SELECT user_version FROM pragma_user_version), (SELECT page_size FROM pragma_page_size),
                               (SELECT page_count FROM pragma_page_count),
                               (SELECT freelist_count FROM pragma_freelist_count),
                               count(*), coalesce(sum(entry_count), 0), coalesce(sum(total_bytes), 0)
                        FROM namespaces
                        """
                    ) { statement in try statement.firstRow { row in (0..<7).map { row.int(Int32($0)) } } } ?? []
                return (totals, try Self.recentCounts(now: now, on: connection).values.reduce(.zero, +))
            }
        }
        func total(_ index: Int) -> Int { index < totals.count ? totals[index] : 0 }
        return StoreSummary(
            path: path, now: now, formatVersion: total(0), isReadOnly: isReadOnly, fileBytes: fileBytes,
            walBytes: walBytes, pageSize: total(1), pageCount: total(2), freelistCount: total(3),
            namespaceCount: total(4), entryCount: total(5), payloadBytes: Int64(total(6)),
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

/// A `namespaces` row.
struct NamespaceRecordRow {
    let id: Int64
    let name: String
    let version: String
    let policyJSON: String
    let entryCount: Int
    let bytes: Int64
    let generation: Int
    let createdAt: Int64
    let updatedAt: Int64

    private static let policyDecoder = JSONDecoder()

    /// The summary, with the counts and times that need the entries' indexes and the last
    /// minute's telemetry counters `recent`.
    func summary(now: Int64, recent: CacheStatistics, on connection: SQLiteConnection) throws -> NamespaceSummary {
        let expired = try connection.countExpired(namespaceID: id, now: now)
        // Separate statements: SQLite answers a lone min() or max() with one index descent,
        // but both in one statement scan the range.
        let leastRecent = try connection.scalar(
            "SELECT min(accessed_at) FROM entries WHERE namespace_id = ?1", id)
        let mostRecent = try connection.scalar(
            "SELECT max(accessed_at) FROM entries WHERE namespace_id = ?1", id)
        return NamespaceSummary(
            name: name, entryCount: entryCount, expiredEntryCount: expired,
            liveEntryCount: entryCount.subtractingClamped(expired),
            bytes: bytes, version: version, generation: generation,
            policy: try? Self.policyDecoder.decode(NamespacePolicy.self, from: Data(policyJSON.utf8)),
            policyJSON: policyJSON, createdAt: createdAt, updatedAt: updatedAt, leastRecentlyUsedAt: leastRecent,
            mostRecentlyUsedAt: mostRecent, lastMinute: Inspector.recentActivity(recent, now: now))
    }
}

extension SQLiteConnection {
    /// The `namespaces` rows, by name; only `name`'s when given.
    func namespaceRecords(named name: String?) throws -> [NamespaceRecordRow] {
        try withStatement(
            """
            SELECT id, name, version, policy, entry_count, total_bytes, generation, created_at, updated_at
            FROM namespaces WHERE ?1 IS NULL OR name = ?1 ORDER BY name
            """
        ) { statement in
            statement.bind(name)
            return try statement.rows { row in
                NamespaceRecordRow(
                    id: row.int64(0), name: row.text(1), version: row.text(2), policyJSON: row.text(3),
                    entryCount: row.int(4), bytes: row.int64(5), generation: row.int(6), createdAt: row.int64(7),
                    updatedAt: row.int64(8))
            }
        }
    }
}
