import CacheCore
import Foundation

/// One row of the peers table: value size, operation mix and number of processes.
struct PeerScenario: Hashable, Sendable {
    /// Reads and writes per ten operations, roughly: 10:1 or 1:10.
    enum Mix: String, CaseIterable, Sendable {
        case getHeavy = "get-heavy"
        case setHeavy = "set-heavy"

        /// The chance that an operation is a get.
        var getShare: Double { self == .getHeavy ? 10.0 / 11.0 : 1.0 / 11.0 }
    }

    let valueSize: Int
    let mix: Mix
    let processes: Int

    var label: String { "\(valueSize == 100 ? "100 B" : "4 KB"), \(mix.rawValue), \(processes) proc" }

    static func all() -> [PeerScenario] {
        [100, 4096].flatMap { size in
            Mix.allCases.flatMap { mix in [1, 4].map { PeerScenario(valueSize: size, mix: mix, processes: $0) } }
        }
    }
}

/// How much work each worker does.
struct PeerSizes: Sendable {
    let keys: Int
    let operations: Int

    /// Deletes a worker times after its mix (distinct keys per worker).
    var deletes: Int { max(1, operations / 10) }
}

/// The operations of one worker, the same for every engine: a deterministic sequence of gets
/// and sets over random keys, then deletes of a slice of keys of its own.
struct PeerPlan: Sendable {
    enum Operation: Sendable {
        case get(String)
        case set(String)
    }

    let operations: [Operation]
    let deletes: [String]

    init(scenario: PeerScenario, sizes: PeerSizes, worker: Int) {
        var generator = SplitMix64(seed: UInt64(0x9EE5 + worker))
        operations = (0..<sizes.operations).map { _ in
            let key = Workload.key("k", Int(generator.next() % UInt64(sizes.keys)))
            let isGet = Double(generator.next() % 10_000) / 10_000 < scenario.mix.getShare
            return isGet ? .get(key) : .set(key)
        }
        let stride = sizes.keys / max(1, scenario.processes)
        deletes = (0..<min(sizes.deletes, stride)).map { Workload.key("k", worker * stride + $0) }
    }
}

/// Per-operation latencies of one worker, in nanoseconds.
struct PeerLatencies: Codable, Sendable {
    var get: [Int] = []
    var set: [Int] = []
    var delete: [Int] = []

    mutating func add(_ other: PeerLatencies) {
        get += other.get
        set += other.set
        delete += other.delete
    }
}
