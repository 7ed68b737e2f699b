/// Loaders and warmers that need the tenant a key belongs to (or anything else the key was
/// made from) get it as a typed argument, as the app models it, instead of parsing it back
/// out of the key:
///
/// ```swift
/// let guests = try await planner.value(for: "guests_\(acme.id)", tenant: acme) { _, tenant in
///     try await api.guests(of: tenant)
/// }
/// let report = await planner.warm([(key: "guests_acme", tenant: acme), (key: "guests_globex", tenant: globex)]) {
///     _, tenant in try await api.guests(of: tenant)
/// }
/// ```
///
/// The key still names the entry: one load runs per key however many callers wait, and its
/// result is what every one of them gets, so keys of different tenants must differ (as they
/// must for the file, the memory tier and invalidation anyway).
extension Cache {
    /// ``value(for:refreshAfter:orLoad:)`` whose loader also gets `tenant`.
    public func value<Tenant: Sendable>(
        for key: Key, tenant: Tenant, refreshAfter: Duration? = nil,
        orLoad loader: @escaping @Sendable (Key, Tenant) async throws -> Value
    ) async throws -> Value {
        try await read(key, refreshAfter: refreshAfter, orLoad: { try await loader($0, tenant) }, on: nil).value
    }

    /// ``read(_:refreshAfter:orLoad:)`` whose loader also gets `tenant`.
    public func read<Tenant: Sendable>(
        _ key: Key, tenant: Tenant, refreshAfter: Duration? = nil,
        orLoad loader: @escaping @Sendable (Key, Tenant) async throws -> Value
    ) async throws -> StaleRead<Value> {
        try await read(key, refreshAfter: refreshAfter, orLoad: { try await loader($0, tenant) }, on: nil)
    }

    /// ``warm(_:concurrency:using:)`` over keys of several tenants: each key's load gets the
    /// tenant it is listed with.
    public func warm<Tenant: Sendable>(
        _ keys: [(key: Key, tenant: Tenant)], concurrency: Int = 4,
        using loader: @escaping @Sendable (Key, Tenant) async throws -> Value
    ) async -> WarmingReport {
        await warm(Self.loads(keys, loader), concurrency: concurrency, on: nil)
    }

    /// Each key with a loader that passes its tenant on.
    static func loads<Tenant: Sendable>(
        _ keys: [(key: Key, tenant: Tenant)], _ loader: @escaping @Sendable (Key, Tenant) async throws -> Value
    ) -> [(key: Key, loader: @Sendable (Key) async throws -> Value)] {
        keys.map { key, tenant in (key, { try await loader($0, tenant) }) }
    }
}
