/// Deletes the trash of actions older than ``MaintenanceOptions/trashRetention``, namespaces
/// retired by version changes, and audit rows older than ``MaintenanceOptions/auditRetention``,
/// in bounded batches.
struct TrashPurgeJob: MaintenanceJob {
    var task: MaintenanceTask { .purgeTrashAndAudit }

    func run(in context: MaintenanceContext, report: inout MaintenanceReport) throws {
        let trashCutoff = context.now - context.options.trashRetention.milliseconds
        let auditCutoff = context.now - context.options.auditRetention.milliseconds
        for partition in try context.database.read({ try $0.expiredPartitions(before: trashCutoff) }) {
            while true {
                let purged = try context.database.write(usingReserve: true) {
                    try $0.deletePartitionBatch(partition, limit: CacheStore.batchSize)
                }
                report.trashRowsPurged += purged
                if purged < CacheStore.batchSize { break }
            }
        }
        while true {
            let purged = try context.database.write(usingReserve: true) {
                try $0.purgeExpiryTrash(before: trashCutoff, limit: CacheStore.batchSize)
            }
            if purged < CacheStore.batchSize { break }
        }
        report.auditRowsPurged += try context.database.write(usingReserve: true) {
            try $0.purgeAudit(before: auditCutoff)
        }
    }
}
