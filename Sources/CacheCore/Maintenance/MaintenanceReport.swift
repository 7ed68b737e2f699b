/// What one maintenance pass did.
public struct MaintenanceReport: Sendable, Hashable {
    /// Expired entries removed by the sweep and by size-limit enforcement.
    public var expiredRemoved = 0
    /// Live entries evicted to bring namespaces or the store within their size limits.
    public var evicted = 0
    /// Whether the sweep removed everything that was expired (`false` when it ran out of budget).
    public var sweepFinished = true
    /// The share of a sample of entries that was expired when the sweep ran out of budget.
    public var sampledExpiredShare: Double?
    /// Whether the sweep ran out of budget with at least ``MaintenanceOptions/repeatThreshold``
    /// of its sample expired, so the next pass follows after ``MaintenanceOptions/repeatDelay``.
    public var repeatsSoon = false
    /// The sweep's batch size at the end of the pass (it adapts to the batch budget).
    public var sweepBatchSize = 0
    /// Telemetry rows rolled into coarser buckets.
    public var telemetryRowsRolledUp = 0
    /// Telemetry rows deleted past the last tier's retention.
    public var telemetryRowsDeleted = 0
    /// Client rows removed for want of a heartbeat.
    public var staleClientsRemoved = 0
    /// Trash rows deleted (past their retention).
    public var trashRowsPurged = 0
    /// Audit rows deleted (past their retention).
    public var auditRowsPurged = 0
    /// Free pages given back to the filesystem (at most 2,048 a pass).
    public var pagesVacuumed = 0
    /// The WAL checkpoint, when one ran.
    public var checkpoint: WALCheckpoint?
    /// Tasks that failed, with the error (the other tasks still ran).
    public var failures: [MaintenanceTask: String] = [:]
    /// How long the pass took.
    public var duration: Duration = .zero

    /// Creates an empty report.
    public init() {}
}

/// The outcome of a WAL checkpoint.
public struct WALCheckpoint: Sendable, Hashable {
    /// Frames in the WAL when the checkpoint ran.
    public var framesInLog: Int
    /// Frames copied into the database file.
    public var framesCheckpointed: Int
    /// Whether the WAL file was truncated to zero bytes afterwards.
    public var truncated: Bool
    /// The WAL's size before the checkpoint.
    public var walBytesBefore: Int
    /// The WAL's size after the checkpoint.
    public var walBytesAfter: Int

    /// Creates a checkpoint outcome.
    public init(framesInLog: Int, framesCheckpointed: Int, truncated: Bool, walBytesBefore: Int, walBytesAfter: Int) {
        self.framesInLog = framesInLog
        self.framesCheckpointed = framesCheckpointed
        self.truncated = truncated
        self.walBytesBefore = walBytesBefore
        self.walBytesAfter = walBytesAfter
    }
}
