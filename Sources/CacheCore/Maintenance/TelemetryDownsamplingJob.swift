import Foundation

/// Rolls telemetry buckets older than their tier's retention into the next tier's buckets
/// (whole coarse buckets only, so a coarse bucket is never half rolled up) and deletes the
/// last tier's buckets past its retention. Each transaction covers at most
/// ``bucketsPerTransaction`` coarse buckets.
struct TelemetryDownsamplingJob: MaintenanceJob {
    static let bucketsPerTransaction: Int64 = 10

    var task: MaintenanceTask { .downsampleTelemetry }

    func run(in context: MaintenanceContext, report: inout MaintenanceReport) throws {
        let tiers = context.storeOptions.statistics.retention.tiers
        let now = context.now
        for (index, tier) in tiers.enumerated() {
            let fine = tier.resolution.milliseconds
            let expired = now - tier.keptFor.milliseconds
            let coarse = index + 1 < tiers.count ? tiers[index + 1].resolution.milliseconds : nil
            // Roll up whole coarse buckets; delete past the last tier's retention.
            let step = coarse ?? fine
            let cutoff = Self.floor(expired, to: step)
            while let oldest = try context.database.read({ try $0.oldestStatsBucket(resolution: fine) }),
                oldest < cutoff
            {
                let end = min(cutoff, Self.floor(oldest, to: step) + step * Self.bucketsPerTransaction)
                try context.writeTransaction { connection in
                    if let coarse {
                        report.telemetryRowsRolledUp += try connection.rollUpStats(from: fine, to: coarse, before: end)
                    } else {
                        report.telemetryRowsDeleted += try connection.deleteStats(resolution: fine, before: end)
                    }
                }
            }
        }
    }

    private static func floor(_ value: Int64, to step: Int64) -> Int64 {
        value - ((value % step) + step) % step
    }
}
