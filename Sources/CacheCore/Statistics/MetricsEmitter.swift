import CoreMetrics

/// Emits counter changes through swift-metrics: `cachedeck_*` counters with `store` and
/// `namespace` dimensions, made once per namespace and metric and reused.
struct MetricsEmitter {
    private struct Series {
        let label: String
        let dimensions: [(String, String)]
        let count: @Sendable (CacheStatistics) -> Int
    }

    private struct Key: Hashable {
        let namespace: String
        let series: Int
    }

    private let factory: (any MetricsFactory)?
    private let store: String
    private var counters: [Key: Counter] = [:]
    private var loadTime: [String: FloatingPointCounter] = [:]

    /// An emitter for `options`, or `nil` when they turn metrics off.
    init?(_ options: StatisticsOptions.Metrics, store: String) {
        switch options {
        case .off: return nil
        case .system: factory = nil
        case .factory(let chosen): factory = chosen
        }
        self.store = store
    }

    /// Adds each namespace's `changes` to its counters.
    mutating func emit(_ changes: [String: CacheStatistics]) {
        let all = Self.series
        for (namespace, change) in changes {
            let dimensions = [("store", store), ("namespace", namespace)]
            for (index, series) in all.enumerated() {
                let amount = series.count(change)
                guard amount != 0 else { continue }
                let key = Key(namespace: namespace, series: index)
                let counter =
                    counters[key]
                    ?? makeCounter(label: series.label, dimensions: dimensions + series.dimensions)
                counters[key] = counter
                counter.increment(by: amount)
            }
            let seconds = Double(change.totalLoadTime.nanosecondCount) / 1e9
            guard seconds > 0 else { continue }
            let counter = loadTime[namespace] ?? makeLoadTimeCounter(dimensions: dimensions)
            loadTime[namespace] = counter
            counter.increment(by: seconds)
        }
    }

    private func makeCounter(label: String, dimensions: [(String, String)]) -> Counter {
        guard let factory else { return Counter(label: label, dimensions: dimensions) }
        return Counter(label: label, dimensions: dimensions, factory: factory)
    }

    private func makeLoadTimeCounter(dimensions: [(String, String)]) -> FloatingPointCounter {
        let label = "cachedeck_load_seconds"
        guard let factory else { return FloatingPointCounter(label: label, dimensions: dimensions) }
        return FloatingPointCounter(label: label, dimensions: dimensions, factory: factory)
    }

    /// Every integer counter, in a fixed order.
    private static var series: [Series] {
        [
            Series(label: "cachedeck_hits", dimensions: [("tier", "memory")]) { $0.memoryHits },
            Series(label: "cachedeck_hits", dimensions: [("tier", "disk")]) { $0.diskHits },
            Series(label: "cachedeck_misses", dimensions: []) { $0.misses },
            Series(label: "cachedeck_stale_hits", dimensions: []) { $0.staleHits },
            Series(label: "cachedeck_sets", dimensions: []) { $0.sets },
            Series(label: "cachedeck_removes", dimensions: []) { $0.removes },
            Series(label: "cachedeck_evictions", dimensions: []) { $0.evictions },
            Series(label: "cachedeck_evicted_bytes", dimensions: []) { $0.evictedBytes },
            Series(label: "cachedeck_expirations", dimensions: []) { $0.expirations },
            Series(label: "cachedeck_invalidations", dimensions: []) { $0.invalidations },
            Series(label: "cachedeck_loads", dimensions: [("result", "success")]) { $0.loadSuccesses },
            Series(label: "cachedeck_loads", dimensions: [("result", "failure")]) { $0.loadFailures },
        ]
    }
}
