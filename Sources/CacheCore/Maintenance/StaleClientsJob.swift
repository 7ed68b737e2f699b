/// Removes client rows whose last heartbeat (or clean stop) is older than
/// ``MaintenanceOptions/clientRetention``. A live store whose row was removed registers again.
struct StaleClientsJob: MaintenanceJob {
    var task: MaintenanceTask { .removeStaleClients }

    func run(in context: MaintenanceContext, report: inout MaintenanceReport) throws {
        let cutoff = context.now - context.options.clientRetention.milliseconds
        report.staleClientsRemoved += try context.database.write { try $0.deleteClients(lastSeenBefore: cutoff) }
    }
}
