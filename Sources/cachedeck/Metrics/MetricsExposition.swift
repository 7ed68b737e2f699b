import CacheCore
import Prometheus

/// The statistics the console shows, as Prometheus text (exposition format 0.0.4, which
/// OpenMetrics scrapers read too): per namespace the stored entries, expired entries and bytes
/// (gauges); what apps did as cumulative counters (`cachedeck_hits_total`, …, counted from
/// ``countersStart``, so `rate()` and `increase()` apply); the last minute's hit ratio and
/// operations per second (`window="1m"` gauges); and how many processes are attached. A scrape
/// builds a fresh registry, so a namespace that is gone is gone from the text too.
struct MetricsExposition {
    /// The namespaces as the source summarizes them.
    var namespaces: [NamespaceSummary]
    /// The window of their last-minute figures (`1m`).
    var window: String
    /// What every process did in each namespace since ``countersStart``, by name.
    var totals: [String: Activity]
    /// Where the counters start (ms since the epoch).
    var countersStart: Int64
    /// Attached processes (or clients), and how many of them are live.
    var processes: (live: Int, total: Int)

    /// The counters, each with its metric name (before `_total`) and help.
    private static let counts: [(name: String, help: String, value: @Sendable (Activity) -> Int)] = [
        ("requests", "Reads", \.requests),
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
        let since = "since the hour the metrics server started (cachedeck_counters_start_seconds)"
        func counter(_ name: String, _ help: String, _ labels: [(String, String)], _ value: Int) {
            let descriptor = MetricNameDescriptor(
                namespace: "cachedeck", metricName: name, unitName: "total", helpText: "\(help), \(since)")
            registry.makeCounter(descriptor: descriptor, labels: labels).increment(by: Int64(max(0, value)))
        }
        for namespace in namespaces {
            let labels = [("namespace", namespace.name)]
            gauge("entries", "Stored entries, expired ones included", labels, Double(namespace.entryCount))
            gauge("expired_entries", "Stored entries that expired, not swept yet", labels,
                Double(namespace.expiredEntryCount))
            gauge("bytes", "Key plus value bytes stored", labels, Double(namespace.bytes))
            if let total = totals[namespace.name] {
                for count in Self.counts { counter(count.name, count.help, labels, count.value(total)) }
            }
            let activity = namespace.lastMinute
            let windowed = labels + [("window", window)]
            gauge("operations_per_second", "Reads and writes per second", windowed, activity.operationsPerSecond)
            // No reads: the hit ratio is unknown, and no sample is better than a made-up one.
            if let hitRate = activity.hitRate {
                gauge("hit_ratio", "Hits per read (0-1); absent without reads", windowed, hitRate)
            }
        }
        gauge(
            "counters_start_seconds", "When the _total counters start counting (Unix time)", [],
            Double(countersStart) / 1000)
        gauge("processes", "Processes (or clients) that recorded telemetry", [], Double(processes.total))
        gauge("live_processes", "Of those, the ones still running", [], Double(processes.live))
        return registry.emitToString()
    }
}
