import CacheCore
import Logging
import ServiceLifecycle

/// A ``CacheStore`` as a swift-service-lifecycle `Service`: while the service group runs,
/// the store runs maintenance passes (sweeps, size limits, telemetry downsampling, WAL
/// checkpoints) and writes its telemetry; on graceful shutdown (or cancellation) it stops
/// maintenance, writes its last telemetry and closes the store, so the file records a clean
/// stop.
///
/// ```swift
/// let store = try CacheStore(named: "planner")
/// let group = ServiceGroup(
///     services: [CacheStoreService(store: store), server],
///     gracefulShutdownSignals: [.sigterm],
///     logger: logger)
/// try await group.run()
/// ```
///
/// List it before the services that use the store: a service group shuts services down in
/// reverse order, so the store closes after them.
public struct CacheStoreService: Service {
    /// The store this service runs.
    public let store: CacheStore
    /// The maintenance it runs (``MaintenanceOptions/interval`` apart).
    public let maintenance: MaintenanceOptions
    /// Whether shutdown closes the store (else it only stops maintenance and flushes).
    public let closesStore: Bool

    /// A service for `store`.
    public init(store: CacheStore, maintenance: MaintenanceOptions = MaintenanceOptions(), closesStore: Bool = true) {
        self.store = store
        self.maintenance = maintenance
        self.closesStore = closesStore
    }

    /// Starts maintenance (its first pass runs at once), waits for graceful shutdown or
    /// cancellation, then stops, flushes and (by default) closes the store. A read-only
    /// store runs no maintenance and writes no telemetry: the service only waits.
    public func run() async throws {
        if !store.isReadOnly { try store.startMaintenance(maintenance) }
        do {
            try await gracefulShutdown()
        } catch is CancellationError {
            // Cancelled rather than asked to shut down: shut down all the same.
        }
        store.stopMaintenance()
        let store = store
        let closes = closesStore
        try await BlockingIOPool.shared.run {
            if !store.isReadOnly {
                try store.flushTelemetry()
                try store.flush()
            }
            if closes { try store.close() }
        }
    }
}
