import Foundation

/// Whether a store's maintenance service runs, and what it last did.
public struct MaintenanceStatus: Sendable, Hashable {
    /// Whether the service is started.
    public var isRunning: Bool
    /// The options it runs with (the last ones, once stopped).
    public var options: MaintenanceOptions?
    /// Passes completed since the store opened (by the service or ``CacheStore/runMaintenance(_:)``).
    public var passes: Int
    /// When the last pass ended (by the store's clock).
    public var lastPassAt: Date?
    /// What the last pass did.
    public var lastReport: MaintenanceReport?

    /// Creates a status.
    public init(
        isRunning: Bool, options: MaintenanceOptions?, passes: Int, lastPassAt: Date?, lastReport: MaintenanceReport?
    ) {
        self.isRunning = isRunning
        self.options = options
        self.passes = passes
        self.lastPassAt = lastPassAt
        self.lastReport = lastReport
    }
}
