import CoreMetrics
import Foundation

/// What a ``CacheStore`` counts, how often it writes its counters and heartbeat into the
/// file for other processes to watch, and where else it reports them.
public struct StatisticsOptions: Sendable {
    /// Where counters are emitted through swift-metrics.
    public enum Metrics: Sendable {
        /// Not emitted.
        case off
        /// The factory `MetricsSystem` was bootstrapped with (bootstrap before opening the store).
        case system
        /// This factory.
        case factory(any MetricsFactory)
    }

    /// Count operations (a few relaxed atomic adds per call). When `false` nothing is
    /// counted, written or emitted.
    public var isEnabled: Bool
    /// How often a writable store adds its counters to the file's telemetry and writes its
    /// heartbeat (one small transaction each time); `nil` writes neither.
    public var telemetryInterval: Duration?
    /// The bucket sizes telemetry is written and downsampled in, and how long each is kept.
    public var retention: TelemetryRetention
    /// Where counters are also emitted, as `cachedeck_*` counters with `store` and
    /// `namespace` dimensions, once per ``telemetryInterval`` (every second when that is `nil`).
    public var metrics: Metrics
    /// The program name recorded for this process in the file's client list.
    public var programName: String

    /// Creates options; the defaults count everything, write telemetry every second and
    /// emit through the bootstrapped swift-metrics backend.
    public init(
        isEnabled: Bool = true,
        telemetryInterval: Duration? = .seconds(1),
        retention: TelemetryRetention = .standard,
        metrics: Metrics = .system,
        programName: String = ProcessInfo.processInfo.processName
    ) {
        self.isEnabled = isEnabled
        self.telemetryInterval = telemetryInterval
        self.retention = retention
        self.metrics = metrics
        self.programName = programName
    }

    /// Counts nothing, writes nothing and emits nothing.
    public static let disabled = StatisticsOptions(isEnabled: false, telemetryInterval: nil, metrics: .off)
}
