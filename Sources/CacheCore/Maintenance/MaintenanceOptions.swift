/// How a store's maintenance service works: which tasks run, how often, and how long each
/// may hold the file.
public struct MaintenanceOptions: Sendable, Hashable {
    /// The tasks to run, each pass in the order of ``MaintenanceTask/allCases``.
    public var tasks: Set<MaintenanceTask>
    /// The pause between passes.
    public var interval: Duration
    /// How long one pass may spend sweeping expired entries.
    public var sweepBudget: Duration
    /// How long one batch (one write transaction, during which the app's writes wait) should
    /// take; sweep batch sizes adapt to it, and a truncating checkpoint waits no longer.
    public var batchBudget: Duration
    /// When a sweep runs out of budget and at least this share of a sample of entries is
    /// expired, the next pass follows after ``repeatDelay`` instead of ``interval``.
    public var repeatThreshold: Double
    /// The pause before a pass that repeats an unfinished sweep.
    public var repeatDelay: Duration
    /// A WAL at least this large is truncated after a checkpoint that caught up with it.
    public var walTruncateBytes: Int
    /// Client rows whose last heartbeat is older than this are removed.
    public var clientRetention: Duration
    /// Rows removed by admin actions stay in the trash (restorable) this long.
    public var trashRetention: Duration
    /// Audit rows older than this are removed.
    public var auditRetention: Duration

    /// Creates options; the defaults run every task every minute, sweeping for up to 200 ms
    /// per pass in batches of about 25 ms.
    public init(
        tasks: Set<MaintenanceTask> = Set(MaintenanceTask.allCases),
        interval: Duration = .seconds(60),
        sweepBudget: Duration = .milliseconds(200),
        batchBudget: Duration = .milliseconds(25),
        repeatThreshold: Double = 0.25,
        repeatDelay: Duration = .milliseconds(10),
        walTruncateBytes: Int = 16 << 20,
        clientRetention: Duration = .seconds(3600),
        trashRetention: Duration = Admin.trashRetention,
        auditRetention: Duration = .seconds(90 * 86_400)
    ) {
        self.tasks = tasks
        self.interval = interval
        self.sweepBudget = sweepBudget
        self.batchBudget = batchBudget
        self.repeatThreshold = repeatThreshold
        self.repeatDelay = repeatDelay
        self.walTruncateBytes = walTruncateBytes
        self.clientRetention = clientRetention
        self.trashRetention = trashRetention
        self.auditRetention = auditRetention
    }
}

/// One kind of work the maintenance service does.
public enum MaintenanceTask: String, Sendable, Hashable, CaseIterable, Codable {
    /// Delete entries past their stale window, in batches, within ``MaintenanceOptions/sweepBudget``.
    case sweepExpired
    /// Bring namespaces and the store within their size limits (after a limit was lowered).
    case enforceSizeLimits
    /// Roll old telemetry buckets into coarser ones and delete the oldest.
    case downsampleTelemetry
    /// Remove client rows without a recent heartbeat.
    case removeStaleClients
    /// Delete trash rows past ``MaintenanceOptions/trashRetention`` and audit rows past
    /// ``MaintenanceOptions/auditRetention``.
    case purgeTrashAndAudit
    /// Give up to 2,048 free pages (8 MB) back to the filesystem (`PRAGMA incremental_vacuum`),
    /// on files created since format 6.
    case vacuumFreePages
    /// Checkpoint the WAL into the file (passive), truncating it once it caught up and is large.
    case checkpointWAL
}
