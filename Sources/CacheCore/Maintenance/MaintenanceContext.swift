import Foundation

/// What a maintenance job works with.
struct MaintenanceContext {
    let database: Database
    let statistics: StatisticsRegistry
    let accessLog: AccessLog
    let storeOptions: StoreOptions
    let options: MaintenanceOptions
    let sweeper: ExpirySweeper
    let deleter: BatchRunner
    let checkpointer: Checkpointer

    /// The store's time, in milliseconds.
    var now: Int64 { storeOptions.clock.nowMilliseconds() }

    /// Runs `body` in one write transaction on the store's writer. Maintenance removes (or
    /// shrinks) what it rewrites, so it may use the room kept for removals.
    func writeTransaction<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try database.write(usingReserve: true) { connection in try connection.writeTransaction { try body(connection) }
        }
    }
}
