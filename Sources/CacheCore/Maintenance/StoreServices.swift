import Foundation

/// What a store runs besides reads and writes: its statistics, the telemetry reporter's
/// thread, and the maintenance service. Released unclosed, it stops its threads (without
/// the final telemetry a ``CacheStore/close()`` writes).
final class StoreServices: Sendable {
    let statistics: StatisticsRegistry
    let reporter: TelemetryReporter?
    let maintenance: MaintenanceService
    private let reporterThread: BackgroundWorker?

    /// Starts the telemetry reporter when there is something to report; its first report
    /// comes one interval after opening.
    init(database: Database, accessLog: AccessLog, options: StoreOptions) {
        statistics = StatisticsRegistry(isEnabled: options.statistics.isEnabled)
        maintenance = MaintenanceService(
            database: database, statistics: statistics, accessLog: accessLog, options: options)
        let reporter = TelemetryReporter(database: database, registry: statistics, options: options)
        self.reporter = reporter
        reporterThread = reporter.map { reporter in
            BackgroundWorker(name: "CacheCore telemetry", firstDelay: reporter.interval) {
                reporter.reportLoggingFailures()
                return reporter.interval
            }
        }
    }

    deinit {
        reporterThread?.signalStop()
        maintenance.signalStop()
    }

    /// Stops maintenance and the reporter, then writes the final telemetry.
    func shutDown() {
        maintenance.close()
        reporterThread?.stop()
        reporter?.finish()
    }
}
