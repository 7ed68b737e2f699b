/// One task of a maintenance pass. A pass runs each enabled job in turn; one that throws is
/// recorded in the report and the others still run.
///
/// To add a task: add a ``MaintenanceTask`` case, a type conforming to this protocol, and an entry in
/// ``MaintenanceJobs/all``. A job holds the writer for one bounded batch at a time.
protocol MaintenanceJob: Sendable {
    /// Which task this is (what options enable and reports name).
    var task: MaintenanceTask { get }

    /// Does the task's work for one pass, adding what it did to `report`.
    func run(in context: MaintenanceContext, report: inout MaintenanceReport) throws
}

/// The jobs of a pass, in the order they run: removals first, then a step of giving their
/// pages back, the checkpoint last so it moves the result into the file.
enum MaintenanceJobs {
    static let all: [any MaintenanceJob] = [
        SweepJob(), SizeLimitJob(), TelemetryDownsamplingJob(), StaleClientsJob(), TrashPurgeJob(), VacuumJob(),
        CheckpointJob(),
    ]
}
