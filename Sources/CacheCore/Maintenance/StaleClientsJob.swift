import Foundation

/// Removes client rows whose last heartbeat (or clean stop) is older than
/// ``MaintenanceOptions/clientRetention``. A live store whose row was removed registers again.
/// Memory-tier registrations of processes on this host that no longer run go too, so other
/// processes stop journaling invalidations for them.
struct StaleClientsJob: MaintenanceJob {
    var task: MaintenanceTask { .removeStaleClients }

    func run(in context: MaintenanceContext, report: inout MaintenanceReport) throws {
        let cutoff = context.now - context.options.clientRetention.milliseconds
        let host = ProcessInfo.processInfo.hostName
        report.staleClientsRemoved += try context.database.write(usingReserve: true) { connection in
            try connection.deleteClients(lastSeenBefore: cutoff)
                + connection.deleteMemoryTiersOfDeadProcesses(host: host)
        }
    }
}
