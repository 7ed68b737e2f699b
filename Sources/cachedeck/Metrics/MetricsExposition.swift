import CacheCore
import Prometheus

/// The statistics the console shows, as Prometheus text (exposition format 0.0.4, which
/// OpenMetrics scrapers read too): per namespace the stored entries, expired entries and bytes,
/// and the reads and writes of the last minute (`window="1m"`: every process attached to a
/// file, or every RedisStore client's per-minute counts of this minute and the one before),
/// plus how many processes are attached. A scrape builds a fresh
/// registry, so a namespace that is gone is gone from the text too.
struct MetricsExposition {
    /// The namespaces as the source summarizes them.
    var namespaces: [NamespaceSummary]
    /// The window of their activity (`1m`).
    var window: String
    /// Attached processes (or clients), and how many of them are live.
    var processes: (live: Int, total: Int)

    /// The counters of an activity window, each with its metric name and help.
    private static let counts: [(name: String, help: String, value: @Sendable (Activity) -> Int)] = [
        ("requests", "Reads over the window", \.requests),
        ("hits", "Reads that found a fresh entry", \.hits),
        ("misses", "Reads that found nothing", \.misses),
        ("stale_hits", "Reads answered from an entry's stale window", \.staleHits),
        ("sets", "Writes", \.sets),
        ("removes", "Removals by key", \.removes),
        ("evictions", "Entries evicted for room", \.evictions),
        ("expirations", "Expired entries removed", \.expirations),
        ("invalidations", "Entries invalidated", \.invalidations),
        ("load_failures", "Loads (read-through) that failed", \.loadFailures),
    ]

    /// The exposition text.
    func text() -> String {
        let registry = PrometheusCollectorRegistry()
        func gauge(_ name: String, _ help: String, _ labels: [(String, String)] = [], _ value: Double) {
            let descriptor = MetricNameDescriptor(namespace: "cachedeck", metricName: name, unitName: "", helpText: help)
            registry.makeGauge(descriptor: descriptor, labels: labels).set(value)
        }
        for namespace in namespaces {
            let labels = [("namespace", namespace.name)]
            gauge("entries", "Stored entries, expired ones included", labels, Double(namespace.entryCount))
            gauge("expired_entries", "Stored entries that expired, not swept yet", labels,
                Double(namespace.expiredEntryCount))
            gauge("bytes", "Key plus value bytes stored", labels, Double(namespace.bytes))
            let activity = namespace.lastMinute
            let windowed = labels + [("window", window)]
            for count in Self.counts { gauge(count.name, count.help, windowed, Double(count.value(activity))) }
            gauge("operations_per_second", "Reads and writes per second", windowed, activity.operationsPerSecond)
            // No reads: the hit ratio is unknown, and no sample is better than a made-up one.
            if let hitRate = activity.hitRate {
                gauge("hit_ratio", "Hits per read (0-1); absent without reads", windowed, hitRate)
            }
        }
        gauge("processes", "Processes (or clients) that recorded telemetry", [], Double(processes.total))
        gauge("live_processes", "Of those, the ones still running", [], Double(processes.live))
        return registry.emitToString()
    }
}
