/// Gives the file's free pages back to the filesystem a bounded step per pass
/// (``SQLiteConnection/vacuumStep()``: at most 2,048 pages, 8 MB), so space freed by sweeps,
/// evictions and trash purges comes back without ``CacheStore/compact(progress:)``. Runs on
/// files that vacuum incrementally (created since format 6); the checkpoint after it moves
/// the shorter file into place.
struct VacuumJob: MaintenanceJob {
    var task: MaintenanceTask { .vacuumFreePages }

    func run(in context: MaintenanceContext, report: inout MaintenanceReport) throws {
        report.pagesVacuumed = try context.database.write(usingReserve: true) { connection in
            guard try connection.isIncrementallyVacuumed() else { return 0 }
            let before = try connection.freePages()
            guard before > 0 else { return 0 }
            try connection.vacuumStep()
            return before - (try connection.freePages())
        }
    }
}
