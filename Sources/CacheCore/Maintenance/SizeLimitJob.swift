import Foundation

/// Brings every namespace within its recorded policy's limits, and the store within this
/// store's limits, evicting at most one batch per transaction. Writes enforce limits as they
/// go; this catches up after a limit was lowered or set by another process.
struct SizeLimitJob: MaintenanceJob {
    var task: MaintenanceTask { .enforceSizeLimits }

    func run(in context: MaintenanceContext, report: inout MaintenanceReport) throws {
        let decoder = JSONDecoder()
        let policies = try context.database.read { try $0.namespacePolicies() }.compactMap { row in
            (try? decoder.decode(NamespacePolicy.self, from: Data(row.policyJSON.utf8))).map { (row.id, $0) }
        }
        let limited = policies.filter { $0.1.maxEntries != nil || $0.1.maxBytes != nil }
        let storeOptions = context.storeOptions
        let storeLimited = storeOptions.maxEntries != nil || storeOptions.maxBytes != nil
        guard !limited.isEmpty || storeLimited else { return }
        let batch = context.sweeper.sizer.size
        // Recency must be current before least-recently-used eviction picks its victims; the
        // log (at most `AccessLog.capacity` records) is written a slice per transaction.
        let slice = 1024
        for _ in 0...(AccessLog.capacity / slice) where !context.accessLog.isEmpty {
            try context.writeTransaction { connection in
                try AccessLog.write(context.accessLog.drain(limit: slice), to: connection, now: context.now)
            }
        }
        for (namespaceID, policy) in limited {
            try repeatUntilWithin(batch: batch, context: context, report: &report) { connection in
                try Eviction.enforce(
                    namespaceID: namespaceID, policy: policy, on: connection, now: context.now, limit: batch)
            }
        }
        if storeLimited {
            try repeatUntilWithin(batch: batch, context: context, report: &report) { connection in
                try Eviction.enforceStore(
                    maxEntries: storeOptions.maxEntries, maxBytes: storeOptions.maxBytes, on: connection,
                    now: context.now, limit: batch)
            }
        }
    }

    /// Runs `evict` in its own transactions until one removes less than a full batch.
    private func repeatUntilWithin(
        batch: Int, context: MaintenanceContext, report: inout MaintenanceReport,
        _ evict: (SQLiteConnection) throws -> EvictionTally
    ) throws {
        while true {
            let tally = try context.writeTransaction { connection in
                let tally = try evict(connection)
                try context.statistics.record(tally, on: connection)
                return tally
            }
            for removed in tally.namespaces.values {
                report.expiredRemoved += removed.expired
                report.evicted += removed.evicted
            }
            if tally.count < batch { return }
        }
    }
}
