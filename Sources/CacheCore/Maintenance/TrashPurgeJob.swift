/// Deletes trash rows of actions older than ``MaintenanceOptions/trashRetention`` and audit
/// rows older than ``MaintenanceOptions/auditRetention``, in bounded batches.
struct TrashPurgeJob: MaintenanceJob {
    var task: MaintenanceTask { .purgeTrashAndAudit }

    func run(in context: MaintenanceContext, report: inout MaintenanceReport) throws {
        let trashCutoff = context.now - context.options.trashRetention.milliseconds
        let auditCutoff = context.now - context.options.auditRetention.milliseconds
        while true {
            let purged = try context.database.write {
                try $0.purgeTrash(before: trashCutoff, limit: CacheStore.batchSize)
            }
            report.trashRowsPurged += purged
            if purged < CacheStore.batchSize { break }
        }
        report.auditRowsPurged += try context.database.write { try $0.purgeAudit(before: auditCutoff) }
    }
}
