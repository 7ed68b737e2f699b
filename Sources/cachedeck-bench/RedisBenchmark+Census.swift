import CacheCore
import CacheCoreRedis
import Foundation
import Synchronization

/// The census rows: another client's `PING` while the Overview's census of the store counts
/// its entries (paced, as the console runs it), against the same `PING`s with the server
/// idle; and, for comparison, while an unpaced census (500 keys a call, no rest, as before
/// the census was paced) runs.
extension RedisBenchmark {
    func measureCensus(_ store: RedisStore) throws {
        let cache = try store.dataCache("census", key: String.self, policy: NamespacePolicy(expiration: .never))
        let keys = Workload.keys("c", count: censusSize)
        for start in stride(from: 0, to: keys.count, by: 1000) {
            try cache.set(keys[start..<min(start + 1000, keys.count)].map { (key: $0, value: value) })
        }
        let inspector = try RedisStoreInspector(url: url, environment: [:])
        // One probe per primary, PINGed in turn (the census walks them all at once).
        let probes = try (cluster?.primaries().map(\.url) ?? [url]).map { try RedisRawClient(url: $0) }
        var idle = LatencySample()
        for index in 0..<4000 { try idle.ping(probes[index % probes.count]) }
        var figures: [(name: String, sample: LatencySample, seconds: Double)] = []
        for (name, census) in [
            ("paced", inspector.census()), ("unpaced (500 a call, no rest)", inspector.census(batchSize: 500, idleShare: 0)),
        ] {
            let done = Atomic(false)
            let failure = Mutex<(any Error)?>(nil)
            let started = ContinuousClock.now
            let worker = Thread {
                do { try census.finish() } catch { failure.withLock { $0 = error } }
                done.store(true, ordering: .releasing)
            }
            worker.start()
            var busy = LatencySample()
            while !done.load(ordering: .acquiring) { try busy.ping(probes[busy.count % probes.count]) }
            if let error = failure.withLock({ $0 }) { throw error }
            let counted = census.namespaces().first { $0.namespace.name == "census" }?.entries ?? 0
            guard counted == censusSize else { throw BenchError("the census counted \(counted) of \(censusSize)") }
            figures.append((name, busy, (ContinuousClock.now - started).nanoseconds / 1e9))
        }
        for (label, fraction) in [("p50", 0.5), ("p99", 0.99)] {
            record(
                ReportRow(
                    operation: "another client's PING, \(label), while the census counts (vs idle)",
                    times: Timing.Pair(cacheCore: figures[0].sample.percentile(fraction), baseline: idle.percentile(fraction)),
                    budget: .atMost(2, label: "≤ 2×")))
        }
        for figure in figures {
            report.note(
                "census of \(Format.count(censusSize)) entries, \(figure.name): \(String(format: "%.2f", figure.seconds)) s; "
                    + "PING p50 \(Format.microseconds(figure.sample.percentile(0.5))) µs, p99 "
                    + "\(Format.microseconds(figure.sample.percentile(0.99))) µs (\(figure.sample.count) PINGs; idle p50 "
                    + "\(Format.microseconds(idle.percentile(0.5))) µs, p99 \(Format.microseconds(idle.percentile(0.99))) µs)")
        }
    }
}
