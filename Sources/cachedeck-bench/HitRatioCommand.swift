import ArgumentParser
import CacheCore
import Foundation

/// `cachedeck-bench hitratio`: the hit ratio of the store's sampled least-recently-used
/// eviction against exact LRU on the same traces, in the same run.
struct HitRatioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hitratio",
        abstract: "Sampled LRU eviction (a real store) vs exact LRU (in memory): hit ratios on Zipf and scan traces."
    )

    @Option(help: "Requests per trace (the budget is stated for at least 1,000,000).")
    var requests = 1_000_000

    @Option(help: "Distinct keys; the cache holds a tenth of them.")
    var keyspace = 100_000

    /// Sampled LRU's hit ratio must be at least this fraction of exact LRU's.
    static let budget = 0.98

    func run() throws {
        guard requests > 0, keyspace >= 10 else { throw ValidationError("requests and keyspace must be positive") }
        let directory = try TemporaryDirectory(prefix: "cachedeck-bench")
        defer { directory.remove() }
        let capacity = keyspace / 10
        print(
            "\(Format.count(requests)) requests per trace over \(Format.count(keyspace)) keys, "
                + "a cache of \(Format.count(capacity)) entries; a miss sets the key")
        let traces = [
            HitRatioTrace.zipf(exponent: 0.9, keyspace: keyspace, requests: requests, seed: 1),
            HitRatioTrace.zipf(exponent: 1.1, keyspace: keyspace, requests: requests, seed: 2),
            HitRatioTrace.scanPolluted(keyspace: keyspace, requests: requests, seed: 3),
        ]
        var rows: [[String]] = []
        var failed = 0
        for (index, trace) in traces.enumerated() {
            var exact = ExactLRU(capacity: capacity, keyspace: keyspace)
            let exactHits = trace.keys.reduce(0) { $0 + (exact.request($1) ? 1 : 0) }
            let started = ContinuousClock.now
            let sampledHits = try Self.storeHits(
                trace, capacity: capacity, path: directory.file("trace\(index).sqlite"))
            let exactRatio = Double(exactHits) / Double(trace.keys.count)
            let sampledRatio = Double(sampledHits) / Double(trace.keys.count)
            let relative = sampledRatio / exactRatio
            let passed = relative >= Self.budget && trace.keys.count >= 1_000_000
            if !passed { failed += 1 }
            rows.append([
                trace.name, String(format: "%.4f", exactRatio), String(format: "%.4f", sampledRatio),
                String(format: "%.3f×", relative), "≥ \(Self.budget)× at ≥ 1M requests", passed ? "PASS" : "FAIL",
            ])
            print("  \(trace.name): store run took \(ContinuousClock.now - started)")
        }
        let header = ["trace", "exact LRU", "sampled LRU (store)", "ratio", "budget", "result"]
        print(([""] + Format.table(header: header, rows: rows, leftAligned: [0, 4])).joined(separator: "\n"))
        print(failed == 0 ? "\nevery budget met" : "\n\(failed) budget(s) failed")
    }

    /// Replays `trace` on a real store whose namespace holds `capacity` entries (file tier only,
    /// so every read is a file read and every miss a durable set that evicts): its hits. The
    /// clock moves 1 ms per request, so access times order requests as the in-memory LRU does.
    private static func storeHits(_ trace: HitRatioTrace, capacity: Int, path: String) throws -> Int {
        let clock = ManualClock()
        let store = try CacheStore(path: path, options: StoreOptions(clock: clock))
        defer { try? store.close() }
        let cache = try store.cache(
            "trace", key: Int.self, value: Int.self,
            policy: NamespacePolicy(expiration: .never, maxEntries: capacity))
        var hits = 0
        for key in trace.keys {
            clock.advance(by: .milliseconds(1))
            if try cache.get(key) != nil {
                hits += 1
            } else {
                try cache.set(key, for: key)
            }
        }
        return hits
    }
}
