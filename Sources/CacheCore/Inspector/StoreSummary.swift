/// The whole file at a glance. Sizes are bytes; times are milliseconds since the Unix epoch.
public struct StoreSummary: Sendable, Hashable, Codable {
    /// The cache file's path.
    public var path: String
    /// The time of the snapshot, by the store's clock.
    public var now: Int64
    /// The file's format version (`PRAGMA user_version`).
    public var formatVersion: Int
    /// Whether the store was opened read-only.
    public var isReadOnly: Bool
    /// The size of the database file.
    public var fileBytes: Int64
    /// The size of the write-ahead log beside it (`-wal`), 0 when there is none.
    public var walBytes: Int64
    /// The database page size.
    public var pageSize: Int
    /// Pages in the database (as of the last checkpoint plus the log).
    public var pageCount: Int
    /// Pages on the freelist: unused space a vacuum would return.
    public var freelistCount: Int
    /// Namespaces recorded in the file.
    public var namespaceCount: Int
    /// Stored entries of every namespace, expired ones not yet swept included.
    public var entryCount: Int
    /// Key plus value bytes of those entries (the sum of the namespaces' byte counters).
    public var payloadBytes: Int64
    /// The processes attached to the file, oldest first, live or stale.
    public var processes: [AttachedProcess]
    /// What every process did in the last minute (see ``Inspector/recentWindowMilliseconds``).
    public var lastMinute: Activity

    /// The attached processes that are live.
    public var liveProcessCount: Int { processes.filter(\.isLive).count }
}
