import Foundation

/// What a store runs besides reads and writes: its statistics, a background thread that
/// writes the access log and the telemetry every interval, and the maintenance service. Released unclosed, it stops its threads (without
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
        let writesReads = !database.isReadOnly
        let interval = reporter?.interval ?? .seconds(1)
        let clock = options.clock
        let logger = options.logger
        reporterThread =
            reporter == nil && !writesReads
            ? nil
            : BackgroundWorker(name: "CacheCore background", firstDelay: interval) {
                if writesReads {
                    do {
                        try accessLog.writeInSlices(to: database, now: clock.nowMilliseconds())
                    } catch {
                        logger.warning("recorded reads could not be written", metadata: ["error": "\(error)"])
                    }
                }
                reporter?.reportLoggingFailures()
                return interval
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
