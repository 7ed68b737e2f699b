import CacheCore

extension RedisStore: CacheStoring {
    /// Writes this store's counters and heartbeat now (`flushTelemetry()`); every set is on
    /// the server already.
    public func flush() throws { try flushTelemetry() }
}
