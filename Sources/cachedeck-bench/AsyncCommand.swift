import ArgumentParser
import CacheCore
import Foundation
import Synchronization

/// `cachedeck-bench async`: what the async face costs against the synchronous calls.
struct AsyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "async",
        abstract: "AsyncCache (calls on the blocking-I/O pool) vs the synchronous Cache: the hop's cost per call."
    )

    @Flag(help: "A short run with fewer operations and rounds.")
    var quick = false

    func run() throws {
        let directory = try TemporaryDirectory(prefix: "cachedeck-bench")
        defer { directory.remove() }
        let benchmark = try AsyncBenchmark(quick: quick, directory: directory)
        print(benchmark.summary + "\n")
        let result = Mutex<Result<String, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                let table = try await benchmark.run()
                result.withLock { $0 = .success(table) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        print(try result.withLock { $0 }?.get() ?? "")
    }
}

/// Median-of-rounds nanoseconds per call: sync vs async, for file gets, memory hits and sets,
/// plus the bare hop and many concurrent tasks.
final class AsyncBenchmark: Sendable {
    private let keys: [String]
    private let plan: RoundPlan
    private let writes: RoundPlan
    private let path: String

    init(quick: Bool, directory: TemporaryDirectory) throws {
        keys = Workload.keys("k", count: quick ? 5_000 : 20_000)
        plan = quick ? RoundPlan(rounds: 5, perRound: 20_000) : RoundPlan(rounds: 11, perRound: 100_000)
        writes = quick ? RoundPlan(rounds: 5, perRound: 500) : RoundPlan(rounds: 11, perRound: 2_000)
        path = directory.file("async.sqlite")
    }

    var summary: String {
        """
        cachedeck-bench async: \(keys.count) keys, 100-byte values; median of \(plan.rounds) rounds × \
        \(plan.perRound) calls (sets: \(writes.rounds) × \(writes.perRound)); one task unless said; \
        \(ProcessInfo.processInfo.activeProcessorCount) cores, pool of \(BlockingIOPool.sharedThreadCount) threads
        """
    }

    func run() async throws -> String {
        let store = try CacheStore(path: path)
        defer { try? store.close() }
        let value = Data(repeating: 7, count: 100)
        let disk = try store.dataCache("disk", key: String.self, policy: NamespacePolicy(expiration: .never))
        var hybridPolicy = NamespacePolicy(tiers: .memoryAndDisk, expiration: .never)
        hybridPolicy.memoryMaxEntries = keys.count
        let hybrid = try store.dataCache("hybrid", key: String.self, policy: hybridPolicy)
        for start in stride(from: 0, to: keys.count, by: 1000) {
            let batch = keys[start..<min(start + 1000, keys.count)].map { (key: $0, value: value) }
            try disk.set(batch)
            try hybrid.set(batch)
        }
        let keys = keys
        let plan = plan
        let writes = writes
        func key(_ index: Int) -> String { keys[index % keys.count] }

        var lines = [row("operation", "sync ns/call", "async ns/call", "hop ns", "ratio")]
        let pool = BlockingIOPool.shared
        let hop = try await median(plan) { range in for _ in range { try await pool.run {} } }
        lines.append(row("bare hop (empty call on the pool)", "–", format(hop), format(hop), "–"))

        let fileSync = try await median(plan) { range in for index in range { _ = try disk.get(key(index)) } }
        let fileAsync = try await median(plan) { range in
            for index in range { _ = try await disk.async.get(key(index)) }
        }
        lines.append(compare("file get (hit)", fileSync, fileAsync))

        let memorySync = try await median(plan) { range in for index in range { _ = try hybrid.get(key(index)) } }
        let memoryAsync = try await median(plan) { range in
            for index in range { _ = try await hybrid.async.get(key(index)) }
        }
        lines.append(compare("memory hit (no hop)", memorySync, memoryAsync))

        let setSync = try await median(writes) { range in
            for index in range { try disk.set(value, for: "w\(index)") }
        }
        let setAsync = try await median(writes) { range in
            for index in range { try await disk.async.set(value, for: "a\(index)") }
        }
        lines.append(compare("durable set", setSync, setAsync))

        let tasks = 16
        let concurrentSync = try await median(plan) { range in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        for index in range where index % tasks == task { _ = try disk.get(key(index)) }
                    }
                }
                try await group.waitForAll()
            }
        }
        let concurrentAsync = try await median(plan) { range in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        for index in range where index % tasks == task { _ = try await disk.async.get(key(index)) }
                    }
                }
                try await group.waitForAll()
            }
        }
        lines.append(compare("file get, \(tasks) tasks (per call)", concurrentSync, concurrentAsync))
        return lines.joined(separator: "\n")
    }

    /// Median nanoseconds per call of `body` over the plan's timed rounds (after a warm-up).
    private func median(_ plan: RoundPlan, _ body: (Range<Int>) async throws -> Void) async throws -> Double {
        var times: [Double] = []
        for round in 0...plan.rounds {
            let start = ContinuousClock.now
            try await body(plan.range(round))
            let elapsed = ContinuousClock.now - start
            if round > 0 { times.append(elapsed.nanoseconds / Double(plan.perRound)) }
        }
        return Timing.median(times)
    }

    private func compare(_ name: String, _ sync: Double, _ async: Double) -> String {
        row(name, format(sync), format(async), format(async - sync), String(format: "%.2f×", async / sync))
    }

    private func format(_ nanoseconds: Double) -> String { Format.count(Int(nanoseconds.rounded())) }

    private func row(_ columns: String...) -> String {
        let widths = [38, 14, 15, 10, 8]
        return zip(columns, widths).map { text, width in
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }.joined()
    }
}
