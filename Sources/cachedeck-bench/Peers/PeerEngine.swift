import CacheCore
import Foundation

/// A cache implementation the peers benchmark drives.
enum PeerEngine: String, CaseIterable, Sendable {
    case cacheCore = "cachecore"
    case rawSQLite = "raw"
    case diskcache

    var title: String {
        switch self {
        case .cacheCore: "CacheCore"
        case .rawSQLite: "raw SQLite"
        case .diskcache: "diskcache"
        }
    }

    static let namespace = "peers"

    /// Fills a new file with `keys` values: CacheCore's, or the floor's (``FloorBaseline``)
    /// for raw SQLite.
    static func populateSQLite(_ engine: PeerEngine, path: String, keys: Int, valueSize: Int) throws {
        let value = Data(repeating: 0x5A, count: valueSize)
        if engine == .rawSQLite {
            try FloorBaseline(path: path).fill(
                namespace: namespace, count: keys, key: { Workload.key("k", $0) }, value: { _ in value })
            return
        }
        let store = try CacheStore(path: path)
        let cache = try store.dataCache(namespace, key: String.self, policy: NamespacePolicy(expiration: .never))
        for start in stride(from: 0, to: keys, by: 1000) {
            try cache.set((start..<min(start + 1000, keys)).map { (key: Workload.key("k", $0), value: value) })
        }
        try store.close()
    }

    /// Runs `plan` on the file at `path` and returns each operation's latency.
    static func run(_ engine: PeerEngine, plan: PeerPlan, path: String, valueSize: Int) throws -> PeerLatencies {
        let value = Data(repeating: 0xA5, count: valueSize)
        var latencies = PeerLatencies()
        switch engine {
        case .cacheCore:
            let store = try CacheStore(path: path)
            defer { try? store.close() }
            let cache = try store.dataCache(namespace, key: String.self, policy: NamespacePolicy(expiration: .never))
            for operation in plan.operations {
                switch operation {
                case .get(let key): latencies.get.append(try timed { _ = try cache.get(key) })
                case .set(let key): latencies.set.append(try timed { try cache.set(value, for: key) })
                }
            }
            for key in plan.deletes { latencies.delete.append(try timed { _ = try cache.remove(key) }) }
        case .rawSQLite:
            let floor = try FloorBaseline(path: path)
            for operation in plan.operations {
                switch operation {
                case .get(let key):
                    latencies.get.append(try timed { _ = try floor.get(namespace: namespace, key: key) })
                case .set(let key):
                    latencies.set.append(try timed { try floor.set(namespace: namespace, key: key, value: value) })
                }
            }
            for key in plan.deletes {
                latencies.delete.append(try timed { _ = try floor.remove(namespace: namespace, key: key) })
            }
        case .diskcache:
            throw BenchError("diskcache runs in Python (see DiskcachePeer)")
        }
        return latencies
    }

    private static func timed(_ body: () throws -> Void) throws -> Int {
        let start = ContinuousClock.now
        try body()
        return Int((ContinuousClock.now - start).nanoseconds)
    }
}
