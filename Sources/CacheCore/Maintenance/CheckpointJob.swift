/// Copies the WAL into the database file with a passive checkpoint (which waits for no one)
/// on maintenance's own connection. When that caught up with the whole WAL and the file is at
/// least ``MaintenanceOptions/walTruncateBytes``, a truncating checkpoint, which waits at
/// most ``MaintenanceOptions/batchBudget`` for readers and writers, gives the space back.
struct CheckpointJob: MaintenanceJob {
    var task: MaintenanceTask { .checkpointWAL }

    func run(in context: MaintenanceContext, report: inout MaintenanceReport) throws {
        let walPath = context.database.path + "-wal"
        let before = CacheSize.bytes(ofFileAt: walPath)
        let passive = try context.checkpointer.checkpoint(.passive, busyTimeout: context.options.batchBudget)
        var truncated = false
        if !passive.busy, passive.framesCheckpointed == passive.framesInLog,
            before >= context.options.walTruncateBytes
        {
            truncated = try !context.checkpointer.checkpoint(.truncate, busyTimeout: context.options.batchBudget).busy
        }
        report.checkpoint = WALCheckpoint(
            framesInLog: passive.framesInLog, framesCheckpointed: passive.framesCheckpointed, truncated: truncated,
            walBytesBefore: before, walBytesAfter: CacheSize.bytes(ofFileAt: walPath))
    }
}
