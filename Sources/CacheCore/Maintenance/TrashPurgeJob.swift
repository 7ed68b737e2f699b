/// Deletes the trash of actions older than ``MaintenanceOptions/trashRetention`` and
/// namespaces retired by version changes, in batches sized like every batched deletion (the
/// same purge as ``Admin/purgeTrash(olderThan:)``), then audit rows older than
/// ``MaintenanceOptions/auditRetention``.
struct TrashPurgeJob: MaintenanceJob {
    var task: MaintenanceTask { .purgeTrashAndAudit }

    func run(in context: MaintenanceContext, report: inout MaintenanceReport) throws {
        let trashCutoff = context.now - context.options.trashRetention.milliseconds
        let auditCutoff = context.now - context.options.auditRetention.milliseconds
        report.trashRowsPurged += try context.deleter.purgePartitions(before: trashCutoff)
        report.auditRowsPurged += try context.database.write(usingReserve: true) {
            try $0.purgeAudit(before: auditCutoff)
        }
    }
}
