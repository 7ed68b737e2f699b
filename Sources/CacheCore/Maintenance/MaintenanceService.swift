import Foundation
import Synchronization

/// A store's maintenance: passes over ``MaintenanceJobs/all`` on a background thread the app
/// starts and stops, or one at a time on request. Passes never overlap.
final class MaintenanceService: Sendable {
    private struct State {
        var worker: BackgroundWorker?
        var options: MaintenanceOptions?
        var passes = 0
        var lastPassAt: Int64?
        var lastReport: MaintenanceReport?
    }

    let sweeper: ExpirySweeper
    /// The store's batched deletions (see ``CacheStore/deleter``), which the trash purge uses.
    let deleter: BatchRunner
    private let database: Database
    private let statistics: StatisticsRegistry
    private let accessLog: AccessLog
    private let storeOptions: StoreOptions
    private let state = Mutex(State())
    /// Held for the whole of a pass, so passes never overlap.
    private let passLock = Mutex(())
    /// Maintenance's own connection for checkpoints, which batched jobs use too.
    let checkpointer: Checkpointer
    private let isClosed = Atomic(false)

    init(database: Database, statistics: StatisticsRegistry, accessLog: AccessLog, options: StoreOptions) {
        self.database = database
        self.statistics = statistics
        self.accessLog = accessLog
        self.storeOptions = options
        self.checkpointer = Checkpointer(path: database.path)
        self.sweeper = ExpirySweeper(
            database: database, statistics: statistics, clock: options.clock,
            sizer: BatchSizer(checkpointer: checkpointer, stopwatch: options.batchStopwatch))
        self.deleter = BatchRunner(
            database: database, sizer: BatchSizer(checkpointer: checkpointer, stopwatch: options.batchStopwatch))
    }

    var status: MaintenanceStatus {
        state.withLock { state in
            MaintenanceStatus(
                isRunning: state.worker != nil, options: state.options, passes: state.passes,
                lastPassAt: state.lastPassAt.map(Date.init(millisecondsSince1970:)), lastReport: state.lastReport)
        }
    }

    /// Starts passes every `options.interval`, the first at once. Running already with the
    /// same options does nothing; with other options, it restarts with them.
    func start(_ options: MaintenanceOptions) throws {
        if database.isReadOnly { throw CacheError.readOnly(path: database.path) }
        let replaced: BackgroundWorker? = try state.withLock { state in
            // Checked under the lock ``close()`` sets it under, so no worker outlives a close.
            try ensureOpen()
            if state.worker != nil && state.options == options { return nil }
            let previous = state.worker
            state.options = options
            state.worker = BackgroundWorker(name: "CacheCore maintenance") { [self] in
                let report = try? run(options)
                return report?.repeatsSoon == true ? options.repeatDelay : options.interval
            }
            return previous
        }
        replaced?.stop()
    }

    /// Stops the passes, waiting for a pass in progress to end. Does nothing when stopped.
    func stop() {
        state.withLock { state in
            defer { state.worker = nil }
            return state.worker
        }?.stop()
    }

    /// Asks the thread to stop without waiting (when the store is released unclosed).
    func signalStop() {
        state.withLock { $0.worker }?.signalStop()
    }

    /// Stops the passes for good and closes the checkpoint connection.
    func close() {
        state.withLock { _ in isClosed.store(true, ordering: .releasing) }
        stop()
        checkpointer.close()
    }

    /// Runs one pass now (after any pass in progress) and returns what it did. A task that
    /// fails is reported; the pass throws only when the store is closed.
    @discardableResult
    func run(_ options: MaintenanceOptions) throws -> MaintenanceReport {
        let started = ContinuousClock.now
        var report = try passLock.withLock { _ in
            try ensureOpen()
            let context = MaintenanceContext(
                database: database, statistics: statistics, accessLog: accessLog, storeOptions: storeOptions,
                options: options, sweeper: sweeper, deleter: deleter, checkpointer: checkpointer)
            var report = MaintenanceReport()
            for job in MaintenanceJobs.all where options.tasks.contains(job.task) {
                do {
                    try job.run(in: context, report: &report)
                } catch {
                    report.failures[job.task] = "\(error)"
                }
            }
            return report
        }
        report.duration = ContinuousClock.now - started
        if !report.failures.isEmpty {
            storeOptions.logger.warning(
                "maintenance tasks failed",
                metadata: ["failures": "\(report.failures.map { "\($0.key.rawValue): \($0.value)" })"])
        }
        let finished = storeOptions.clock.nowMilliseconds()
        state.withLock { state in
            state.passes += 1
            state.lastPassAt = finished
            state.lastReport = report
        }
        return report
    }

    private func ensureOpen() throws {
        if isClosed.load(ordering: .acquiring) {
            throw CacheError.cannotOpen(path: database.path, reason: "the store was closed")
        }
    }

    /// Sweeps `namespace` (every namespace when `nil`) to the end; returns how many it removed.
    func sweepExpired(
        namespace: String?, keepingStaleWindow: Bool, batchBudget: Duration = MaintenanceOptions().batchBudget
    ) throws -> Int {
        let ids = try database.read { connection in
            guard let namespace else { return try connection.namespaceIDs() }
            return try connection.namespaceRow(name: namespace).map { [$0.id] } ?? []
        }
        return try sweeper.sweep(namespaceIDs: ids, keepingStaleWindow: keepingStaleWindow, batchBudget: batchBudget)
            .removed
    }
}
