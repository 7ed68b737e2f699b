/// What eviction removed, by namespace id: expired entries (counted as expirations) and
/// live entries with their bytes (counted as evictions).
struct EvictionTally: Sendable {
    struct Removed: Sendable, Equatable {
        var expired = 0
        var evicted = 0
        var evictedBytes = 0
    }

    private(set) var namespaces: [Int64: Removed] = [:]

    /// Entries removed in all.
    var count: Int { namespaces.values.reduce(0) { $0 + $1.expired + $1.evicted } }

    mutating func add(expired count: Int, in namespaceID: Int64) {
        guard count > 0 else { return }
        namespaces[namespaceID, default: Removed()].expired += count
    }

    mutating func add(evicted count: Int, bytes: Int, in namespaceID: Int64) {
        guard count > 0 else { return }
        namespaces[namespaceID, default: Removed()].evicted += count
        namespaces[namespaceID, default: Removed()].evictedBytes += bytes
    }

    /// Both tallies together.
    static func + (lhs: EvictionTally, rhs: EvictionTally) -> EvictionTally {
        var sum = lhs
        for (id, removed) in rhs.namespaces {
            sum.add(expired: removed.expired, in: id)
            sum.add(evicted: removed.evicted, bytes: removed.evictedBytes, in: id)
        }
        return sum
    }
}
