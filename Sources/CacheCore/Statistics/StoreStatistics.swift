/// What one store counted since it opened (or since ``CacheStore/resetStatistics()``), per
/// namespace and overall.
///
/// These are the counts of this process only; ``CacheStore/telemetry(since:resolution:)``
/// shows what every process attached to the file has done.
public struct StoreStatistics: Sendable, Hashable, Codable {
    /// Every namespace's counts added together.
    public private(set) var overall: CacheStatistics
    /// Counts by namespace name: each namespace this store has opened a handle on or
    /// removed entries from.
    public private(set) var namespaces: [String: CacheStatistics]

    /// Statistics made of per-namespace counts; ``overall`` is their sum.
    public init(namespaces: [String: CacheStatistics]) {
        self.namespaces = namespaces
        self.overall = namespaces.values.reduce(.zero, +)
    }

    /// The counts of `namespace` (zero when it has none).
    public subscript(namespace: String) -> CacheStatistics { namespaces[namespace] ?? .zero }

    /// The change from `earlier` to `later`, namespace by namespace.
    public static func - (later: StoreStatistics, earlier: StoreStatistics) -> StoreStatistics {
        var namespaces = later.namespaces
        for (name, counts) in earlier.namespaces { namespaces[name, default: .zero] = later[name] - counts }
        return StoreStatistics(namespaces: namespaces)
    }
}
