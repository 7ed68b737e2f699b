import Foundation

extension CacheStatistics {
    /// A few lines a person reads: requests and hit rate with its health, hits by tier (memory,
    /// and the store behind it: the file or the Redis server),
    /// writes and removals, loads.
    ///
    /// ```
    /// requests 120: hit rate 90.0% (excellent), 100 memory + 8 store hits, 2 stale, 10 misses
    /// writes 40 sets, 3 removes, 5 invalidations, 2 evictions (1.2 KB), 7 expirations
    /// loads 12 ok, 1 failed, 4.2 ms on average
    /// ```
    public var report: String {
        var lines = [
            "requests \(requests): hit rate \(Self.percent(hitRate)) (\(health.rawValue)), "
                + "\(memoryHits) memory + \(diskHits) store hits, \(staleHits) stale, \(misses) misses",
            "writes \(sets) sets, \(removes) removes, \(invalidations) invalidations, "
                + "\(evictions) evictions (\(Self.bytes(evictedBytes))), \(expirations) expirations",
        ]
        if loads > 0 {
            lines.append(
                "loads \(loadSuccesses) ok, \(loadFailures) failed, \(Self.milliseconds(averageLoadPenalty)) on average"
            )
        }
        return lines.joined(separator: "\n")
    }

    static func percent(_ rate: Double) -> String { String(format: "%.1f%%", rate * 100) }

    static func bytes(_ count: Int) -> String {
        switch count {
        case ..<1000: "\(count) B"
        case ..<1_000_000: String(format: "%.1f KB", Double(count) / 1000)
        case ..<1_000_000_000: String(format: "%.1f MB", Double(count) / 1_000_000)
        default: String(format: "%.1f GB", Double(count) / 1_000_000_000)
        }
    }

    static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.1f ms", duration.fractionalMilliseconds)
    }
}

extension StoreStatistics {
    /// ``CacheStatistics/report`` for the whole store, then for each namespace (by name),
    /// indented.
    public var report: String {
        var text = "all namespaces\n" + Self.indented(overall.report)
        for name in namespaces.keys.sorted() {
            text += "\n\(name)\n" + Self.indented(self[name].report)
        }
        return text
    }

    private static func indented(_ text: String) -> String {
        text.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
    }
}
