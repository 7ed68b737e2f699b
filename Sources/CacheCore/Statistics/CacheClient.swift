import Foundation

/// A process (one open, writable store) attached to a cache file, as its heartbeat row in
/// the file shows it.
public struct CacheClient: Sendable, Hashable, Identifiable {
    /// The row id; telemetry's per-process series use it.
    public var id: Int64
    /// The process id.
    public var pid: Int32
    /// The host name of the machine the process runs on.
    public var host: String
    /// The program name (``StatisticsOptions/programName``).
    public var program: String
    /// When the store was opened.
    public var startedAt: Date
    /// The last heartbeat.
    public var lastSeen: Date
    /// How often the process writes its heartbeat.
    public var heartbeatInterval: Duration
    /// When the store was closed, if it was closed cleanly.
    public var stoppedAt: Date?
    /// Whether the process looks alive: not closed, a heartbeat within three intervals, and
    /// (on this host) a process with that pid exists.
    public var isLive: Bool

    /// Creates a client description.
    public init(
        id: Int64, pid: Int32, host: String, program: String, startedAt: Date, lastSeen: Date,
        heartbeatInterval: Duration, stoppedAt: Date?, isLive: Bool
    ) {
        self.id = id
        self.pid = pid
        self.host = host
        self.program = program
        self.startedAt = startedAt
        self.lastSeen = lastSeen
        self.heartbeatInterval = heartbeatInterval
        self.stoppedAt = stoppedAt
        self.isLive = isLive
    }
}
