import Foundation

/// Brings every namespace within its recorded policy's limits, and the store within this
/// store's limits, evicting one batch per transaction (sized like the sweep's, see
/// ``BatchRunner``). Writes enforce limits as they
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
        // Recency must be current before least-recently-used eviction picks its victims (the
        // log holds at most `AccessLog.capacity` reads and as many expired ids).
        try context.accessLog.writeInSlices(to: context.database, now: context.now, atMost: 2 * AccessLog.capacity)
        // Sized like the sweep's batches, which delete the same way.
        let batches = BatchRunner(
            database: context.database, sizer: context.sweeper.sizer, budget: context.options.batchBudget)
        for (namespaceID, policy) in limited {
            try evict(with: batches, context: context, report: &report) { connection, limit in
                try Eviction.enforce(
                    namespaceID: namespaceID, policy: policy, on: connection, pools: context.database.evictionPools,
                    now: context.now, limit: limit)
            }
        }
        if storeLimited {
            try evict(with: batches, context: context, report: &report) { connection, limit in
                try Eviction.enforceStore(
                    maxEntries: storeOptions.maxEntries, maxBytes: storeOptions.maxBytes, on: connection,
                    pools: context.database.evictionPools, now: context.now, limit: limit)
            }
        }
    }

    /// Runs `evict` (with a row limit) in batches until one removes less than its limit.
    private func evict(
        with batches: BatchRunner, context: MaintenanceContext, report: inout MaintenanceReport,
        _ evict: (SQLiteConnection, Int) throws -> EvictionTally
    ) throws {
        try batches.run { connection, limit in
            let tally = try evict(connection, limit)
            try context.statistics.record(tally, on: connection)
            return (tally, tally.count, tally.count < limit)
        } committed: { tally in
            for removed in tally.namespaces.values {
                report.expiredRemoved += removed.expired
                report.evicted += removed.evicted
            }
            return true
        }
    }
}
