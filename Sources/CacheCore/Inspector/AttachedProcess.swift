/// A process attached to the cache file (one open, writable store), as its heartbeat row
/// shows it. Times are milliseconds since the Unix epoch.
public struct AttachedProcess: Sendable, Hashable, Codable {
    /// The client id (telemetry's per-process series use it).
    public var id: Int64
    /// The process id.
    public var pid: Int32
    /// The machine it runs on.
    public var host: String
    /// The program's name.
    public var program: String
    /// When it opened the store.
    public var startedAt: Int64
    /// Its last heartbeat.
    public var lastHeartbeatAt: Int64
    /// How often it writes a heartbeat, in milliseconds.
    public var heartbeatIntervalMilliseconds: Int64
    /// When it closed the store, if it closed it cleanly.
    public var stoppedAt: Int64?
    /// Whether it looks alive: not closed, a heartbeat within three intervals and, on this
    /// machine, a running process with that pid. A process that is not live is stale.
    public var isLive: Bool

    init(_ client: CacheClient) {
        id = client.id
        pid = client.pid
        host = client.host
        program = client.program
        startedAt = client.startedAt.millisecondsSince1970
        lastHeartbeatAt = client.lastSeen.millisecondsSince1970
        heartbeatIntervalMilliseconds = client.heartbeatInterval.milliseconds
        stoppedAt = client.stoppedAt?.millisecondsSince1970
        isLive = client.isLive
    }
}
