import CacheCore

extension RedisStore: CacheStoring {
    public func policy(for namespace: String, typeDefault: NamespacePolicy?) -> NamespacePolicy {
        options.policy(for: namespace, typeDefault: typeDefault)
    }

    /// Writes this store's counters and heartbeat now (`flushTelemetry()`); every set is on
    /// the server already.
    public func flush() throws { try flushTelemetry() }
}
