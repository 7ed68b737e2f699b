import Foundation
import Logging
import Synchronization

/// Writes a store's counters into the file's telemetry and its heartbeat into `clients` —
/// one small transaction per call, never per operation — and emits them through
/// swift-metrics.
///
/// Each call writes what was counted since the last successful write (a failed write is
/// retried with the next call, so nothing is lost). A process registers on its first
/// call; a clean close marks it stopped.
final class TelemetryReporter: Sendable {
    private struct State {
        var clientID: Int64?
        var written: [String: CacheStatistics] = [:]
        var emitted: [String: CacheStatistics] = [:]
        var metrics: MetricsEmitter?
        var isFinished = false
        var isFailing = false
    }

    /// How often ``report()`` should run.
    let interval: Duration
    private let database: Database
    private let registry: StatisticsRegistry
    private let clock: any CacheClock
    private let identity: ProcessIdentity
    private let startedAt: Int64
    private let writesTelemetry: Bool
    private let resolution: Int64
    private let logger: Logger
    private let state: Mutex<State>

    /// A reporter for the store, or `nil` when there is nothing to report: statistics off,
    /// or neither telemetry (a writable store with an interval) nor metrics.
    init?(database: Database, registry: StatisticsRegistry, options: StoreOptions) {
        let statistics = options.statistics
        let storeName = ((database.path as NSString).lastPathComponent as NSString).deletingPathExtension
        let metrics = MetricsEmitter(statistics.metrics, store: storeName)
        let writesTelemetry = !database.isReadOnly && statistics.telemetryInterval != nil
        guard statistics.isEnabled, writesTelemetry || metrics != nil else { return nil }
        self.interval = statistics.telemetryInterval ?? .seconds(1)
        self.database = database
        self.registry = registry
        self.clock = options.clock
        self.identity = .current(program: statistics.programName)
        self.startedAt = options.clock.nowMilliseconds()
        self.writesTelemetry = writesTelemetry
        self.resolution = statistics.retention.finestResolution
        self.logger = options.logger
        self.state = Mutex(State(metrics: metrics))
    }

    /// This store's row in `clients`, once it has registered.
    var clientID: Int64? { state.withLock { $0.clientID } }

    /// Emits and writes what was counted since the last call, with a heartbeat.
    func report() throws {
        try report(stopping: false)
    }

    /// The last report, which marks this client stopped; later calls do nothing. Failures
    /// are logged (closing a store never fails for telemetry).
    func finish() {
        do {
            try report(stopping: true)
        } catch {
            logger.warning("could not write the final telemetry", metadata: ["error": "\(error)"])
        }
    }

    /// Runs ``report()``, logging the first failure of a streak instead of throwing.
    func reportLoggingFailures() {
        do {
            try report()
            state.withLock { $0.isFailing = false }
        } catch {
            let first = state.withLock { state in
                defer { state.isFailing = true }
                return !state.isFailing
            }
            if first { logger.warning("could not write telemetry", metadata: ["error": "\(error)"]) }
        }
    }

    private func report(stopping: Bool) throws {
        try state.withLock { state in
            guard !state.isFinished else { return }
            if stopping { state.isFinished = true }
            let totals = registry.totals()
            if state.metrics != nil {
                state.metrics?.emit(Self.changes(from: state.emitted, to: totals))
                state.emitted = totals
            }
            guard writesTelemetry else { return }
            let changes = Self.changes(from: state.written, to: totals)
            // A store that never registered and has nothing to say leaves no trace at close.
            if stopping && state.clientID == nil && changes.isEmpty { return }
            state.clientID = try write(changes, clientID: state.clientID, stopping: stopping)
            state.written = totals
        }
    }

    /// One transaction: the heartbeat (registering first if needed) and the changes.
    private func write(_ changes: [String: CacheStatistics], clientID: Int64?, stopping: Bool) throws -> Int64 {
        let now = clock.nowMilliseconds()
        let bucket = now - ((now % resolution) + resolution) % resolution
        return try database.write { connection in
            try connection.writeTransaction {
                var id = clientID
                if let known = id, try !connection.heartbeat(clientID: known, now: now, stopping: stopping) {
                    id = nil
                }
                let client: Int64
                if let id {
                    client = id
                } else {
                    client = try connection.insertClient(
                        pid: identity.pid, host: identity.host, program: identity.program, startedAt: startedAt,
                        now: now, heartbeatInterval: interval.milliseconds)
                    if stopping { _ = try connection.heartbeat(clientID: client, now: now, stopping: true) }
                }
                for (namespace, change) in changes.sorted(by: { $0.key < $1.key }) {
                    try connection.addStats(
                        change, resolution: resolution, bucket: bucket, namespace: namespace, clientID: client)
                }
                return client
            }
        }
    }

    /// The non-zero per-namespace differences from `earlier` to `later`.
    private static func changes(from earlier: [String: CacheStatistics], to later: [String: CacheStatistics])
        -> [String: CacheStatistics]
    {
        later.reduce(into: [:]) { result, item in
            let change = item.value - (earlier[item.key] ?? .zero)
            if !change.isZero { result[item.key] = change }
        }
    }
}
