import CacheCore
import CacheCoreRedis
import Foundation
import LocalRedis
import Synchronization

/// Coherence delay: store A sets a key store B holds in its near cache, until B's copy is
/// gone (dropped by Redis' push). On a cluster the namespaces spread over every primary, and
/// the run ends by killing the primary of one of them while B holds a copy.
extension RedisBenchmark {
    /// Two stores on the same server or cluster, each with a hybrid handle on every namespace.
    private struct Pair {
        let a: RedisStore
        let b: RedisStore
        let names: [String]
        let onA: [Cache<String, Data>]
        let onB: [Cache<String, Data>]

        init(url: String, names: [String]) throws {
            a = try RedisStore(url: url)
            b = try RedisStore(url: url)
            self.names = names
            onA = try names.map { [a] in try a.dataCache($0, key: String.self, policy: .hybrid) }
            onB = try names.map { [b] in try b.dataCache($0, key: String.self, policy: .hybrid) }
        }

        func close() {
            a.close()
            b.close()
        }
    }

    /// Goal for the delay's 99th percentile on loopback (issue #28).
    private static let goal = 50_000_000.0

    func measureCoherence(_ raw: RedisRawClient) throws {
        let pair = try Pair(url: url, names: Self.namespacePerNode(raw))
        defer { pair.close() }
        var delays = LatencySample()
        for index in 0..<plan.rounds * 40 {
            delays.add(try delay(of: "c\(index)", in: index % pair.names.count, pair))
        }
        let spread = pair.names.count > 1 ? " over \(pair.names.count) namespaces, one per primary" : ""
        note("coherence delay (store A sets a key store B holds in its near cache, until B's copy is gone)", spread, delays)
        print("  coherence: p50 \(Format.microseconds(delays.percentile(0.5))) µs")
        if let cluster { try measureFailover(cluster, raw, pair) }
    }

    /// A sets `key` and B reads it into its near cache; then A sets it again: nanoseconds
    /// until B's copy is gone.
    private func delay(of key: String, in namespace: Int, _ pair: Pair) throws -> Double {
        let onB = pair.onB[namespace]
        try holdCopy(of: key, in: namespace, pair)
        let start = ContinuousClock.now
        try pair.onA[namespace].set(value, for: key)
        while onB.memoryUsage.entries > 0 {
            if ContinuousClock.now - start > .seconds(5) { throw BenchError("no push for \(key) in 5 s") }
        }
        return (ContinuousClock.now - start).nanoseconds
    }

    /// A sets `key`, and B reads it into its near cache (its only copy in that namespace).
    private func holdCopy(of key: String, in namespace: Int, _ pair: Pair) throws {
        try pair.onA[namespace].set(value, for: key)
        try pair.b.synchronize()
        _ = try pair.onB[namespace].get(key)
        guard pair.onB[namespace].memoryUsage.entries == 1 else { throw BenchError("b did not keep its copy of \(key)") }
    }

    /// Kills the primary of the first namespace while B holds a copy of one of its keys; A sets
    /// that key again until a set is acknowledged (by the promoted replica), and B's copy must
    /// go. Then the delay again, on the new primary.
    private func measureFailover(_ cluster: RedisCluster, _ raw: RedisRawClient, _ pair: Pair) throws {
        let address = raw.address(ofNode: raw.node(ofKey: "{\(pair.names[0])}"))
        guard let port = address.split(separator: ":").last.flatMap({ Int($0) }), let primary = cluster.node(port: port)
        else { throw BenchError("no node at \(address)") }
        let key = "failover"
        try holdCopy(of: key, in: 0, pair)
        let watch = EmptiedWatch(pair.onB[0])
        let killed = ContinuousClock.now
        primary.stop()
        var failures: [String] = []
        while true {
            do {
                try pair.onA[0].set(value, for: key)
                break
            } catch {
                failures.append("\(error)")
                guard ContinuousClock.now - killed < .seconds(30) else {
                    throw BenchError("no set acknowledged within 30 s of the kill: \(error)")
                }
                usleep(1000)
            }
        }
        let acknowledged = ContinuousClock.now
        guard let dropped = watch.wait(until: acknowledged + .seconds(30)) else {
            throw BenchError("b kept its copy 30 s after the set")
        }
        var after = LatencySample()
        var failedCycles = 0
        while after.count < 40 {
            do {
                after.add(try delay(of: "after\(after.count)", in: 0, pair))
            } catch {
                failedCycles += 1
                guard failedCycles < 100 else { throw BenchError("after the failover: \(error)") }
            }
        }
        let milliseconds = { (instant: ContinuousClock.Instant) in Format.milliseconds((instant - killed).nanoseconds) }
        report.note(
            "failover (primary \(address) killed, cluster-node-timeout 1 s): A's first acknowledged set "
                + "\(milliseconds(acknowledged)) ms after the kill (\(failures.count) failed tries, e.g. "
                + "\"\(failures.first.map { String($0.prefix(120)) } ?? "none")\"); B's copy gone "
                + "\(milliseconds(dropped)) ms after the kill, "
                + (dropped <= acknowledged
                    ? "\(Format.milliseconds((acknowledged - dropped).nanoseconds)) ms before that set was acknowledged"
                    : "\(Format.microseconds((dropped - acknowledged).nanoseconds)) µs after that set was acknowledged")
                + (failedCycles > 0 ? "; \(failedCycles) later cycles failed before coherence resumed" : ""))
        note("after the failover, on the promoted replica", "", after)
    }

    /// One namespace name per node of `raw` (its hash tag on that node's slots): the first
    /// `coherenceN` found for each.
    private static func namespacePerNode(_ raw: RedisRawClient) -> [String] {
        var byNode: [Int: String] = [:]
        for index in 0..<10_000 where byNode.count < raw.nodeCount {
            let name = "coherence\(index)"
            let node = raw.node(ofKey: "{\(name)}")
            if byNode[node] == nil { byNode[node] = name }
        }
        return byNode.keys.sorted().compactMap { byNode[$0] }
    }

    /// Polls a near cache from a thread of its own (every 100 µs, for at most a minute) and
    /// notes when it first holds no entry: the instant is known to within the poll, whatever
    /// the caller is blocked in meanwhile.
    private final class EmptiedWatch: Sendable {
        private let emptied = Mutex<ContinuousClock.Instant?>(nil)

        init(_ cache: Cache<String, Data>) {
            Thread.detachNewThread { [self] in
                let deadline = ContinuousClock.now + .seconds(60)
                while ContinuousClock.now < deadline {
                    if cache.memoryUsage.entries == 0 {
                        emptied.withLock { $0 = .now }
                        return
                    }
                    usleep(100)
                }
            }
        }

        /// When the cache was first seen empty, waiting for it until `deadline`.
        func wait(until deadline: ContinuousClock.Instant) -> ContinuousClock.Instant? {
            while ContinuousClock.now < deadline {
                if let instant = emptied.withLock({ $0 }) { return instant }
                usleep(100)
            }
            return nil
        }
    }

    private func note(_ what: String, _ spread: String, _ delays: LatencySample) {
        report.note(
            "\(what), \(delays.count) sets\(spread): p50 \(Format.microseconds(delays.percentile(0.5))) µs, "
                + "p99 \(Format.microseconds(delays.percentile(0.99))) µs, "
                + "max \(Format.microseconds(delays.maximum)) µs; goal p99 ≤ 50 ms: "
                + (delays.percentile(0.99) <= Self.goal ? "PASS" : "FAIL"))
    }
}
