import Foundation

/// Sweeps entries past their stale window (expired ones inside it stay for stale reads)
/// within the pass's sweep budget. When the budget runs out it
/// samples the file: if much of the sample is expired, the next pass comes soon.
struct SweepJob: MaintenanceJob {
    var task: MaintenanceTask { .sweepExpired }

    func run(in context: MaintenanceContext, report: inout MaintenanceReport) throws {
        let deadline = ContinuousClock.now + context.options.sweepBudget
        let namespaceIDs = try context.database.read { try $0.namespaceIDs() }
        let outcome = try context.sweeper.sweep(
            namespaceIDs: namespaceIDs, keepingStaleWindow: true, batchBudget: context.options.batchBudget,
            deadline: deadline)
        report.expiredRemoved += outcome.removed
        report.sweepBatchSize = context.sweeper.sizer.size
        guard !outcome.finished else { return }
        report.sweepFinished = false
        let share = try context.sweeper.sampleExpiredShare()
        report.sampledExpiredShare = share
        report.repeatsSoon = (share ?? 0) >= context.options.repeatThreshold
    }
}
