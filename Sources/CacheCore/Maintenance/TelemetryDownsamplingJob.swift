import Foundation

/// Rolls telemetry buckets older than their tier's retention into the next tier's buckets
/// (whole coarse buckets only, so a coarse bucket is never half rolled up) and deletes the
/// last tier's buckets past its retention. Each transaction covers at most
/// ``bucketsPerTransaction`` coarse buckets (a ``BatchRunner`` of that fixed size: a bucket's
/// rows are as many as the processes and namespaces that reported in it).
struct TelemetryDownsamplingJob: MaintenanceJob {
    static let bucketsPerTransaction = 10

    var task: MaintenanceTask { .downsampleTelemetry }

    func run(in context: MaintenanceContext, report: inout MaintenanceReport) throws {
        let tiers = context.storeOptions.statistics.retention.tiers
        let now = context.now
        let batches = BatchRunner(database: context.database, sizing: .fixed(Self.bucketsPerTransaction))
        for (index, tier) in tiers.enumerated() {
            let fine = tier.resolution.milliseconds
            let expired = now - tier.keptFor.milliseconds
            let coarse = index + 1 < tiers.count ? tiers[index + 1].resolution.milliseconds : nil
            // Roll up whole coarse buckets; delete past the last tier's retention.
            let step = coarse ?? fine
            let cutoff = Self.floor(expired, to: step)
            guard let oldest = try context.database.read({ try $0.oldestStatsBucket(resolution: fine) }),
                oldest < cutoff
            else { continue }
            try batches.run { connection, buckets in
                guard let oldest = try connection.oldestStatsBucket(resolution: fine), oldest < cutoff else {
                    return (0, 0, true)
                }
                let end = min(cutoff, Self.floor(oldest, to: step) + step * Int64(buckets))
                let rows =
                    if let coarse {
                        try connection.rollUpStats(from: fine, to: coarse, before: end)
                    } else {
                        try connection.deleteStats(resolution: fine, before: end)
                    }
                return (rows, buckets, end >= cutoff)
            } committed: { rows in
                if coarse != nil { report.telemetryRowsRolledUp += rows } else { report.telemetryRowsDeleted += rows }
                return true
            }
        }
    }

    private static func floor(_ value: Int64, to step: Int64) -> Int64 {
        value - ((value % step) + step) % step
    }
}
