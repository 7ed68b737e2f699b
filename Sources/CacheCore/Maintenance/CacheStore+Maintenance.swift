extension CacheStore {
    /// Starts the maintenance service: a background thread that runs a pass of
    /// ``MaintenanceOptions/tasks`` at once and then every ``MaintenanceOptions/interval``,
    /// holding the writer for one bounded batch at a time. Starting it while it runs with the
    /// same options does nothing; with other options, it restarts with them. It stops on
    /// ``stopMaintenance()`` and ``close()``. Throws ``CacheError/readOnly(path:)`` on a
    /// read-only store.
    public func startMaintenance(_ options: MaintenanceOptions = MaintenanceOptions()) throws {
        try services.maintenance.start(options)
    }

    /// Stops the maintenance service, waiting for a pass in progress to finish its batch.
    /// Does nothing when it is not running.
    public func stopMaintenance() {
        services.maintenance.stop()
    }

    /// Runs one maintenance pass now, on the calling thread (after any pass in progress),
    /// and returns what it did. Tasks that fail are listed in the report's failures.
    @discardableResult
    public func runMaintenance(_ options: MaintenanceOptions = MaintenanceOptions()) throws -> MaintenanceReport {
        if isReadOnly { throw CacheError.readOnly(path: path) }
        return try services.maintenance.run(options)
    }

    /// Whether maintenance runs, and what its last pass did.
    public var maintenanceStatus: MaintenanceStatus { services.maintenance.status }
}
