import CacheCoreRedis
import Foundation

/// The `keyspace` rows: the keyspace browser's scan (what `cachedeck keys` and the console
/// run) against `redis-cli --scan | wc -l` on the same database, each going first in turn;
/// then the console in a process of its own on that database: its first screen, its memory,
/// and the latency of another client's `PING`s while it scans against the same `PING`s idle.
final class KeyspaceBenchmark {
    private let deployment: KeyspaceDeployment
    private let keys: Int
    private let rounds: Int
    private var report = Report()

    /// Goals from issue #28.
    static let firstScreenBudget = 1e9
    static let memoryBudget = 256.0

    init(deployment: KeyspaceDeployment, keys: Int, rounds: Int) {
        self.deployment = deployment
        self.keys = keys
        self.rounds = rounds
    }

    var summary: String {
        "cachedeck-bench keyspace: \(Format.count(keys)) keys on \(deployment.summary); scans of "
            + "\(rounds) round(s) each, alternating"
    }

    func run() throws -> Report {
        let clock = ContinuousClock()
        let started = clock.now
        try deployment.fill(keys)
        report.note("loaded \(Format.count(keys)) keys in \(Format.seconds((clock.now - started).nanoseconds)) s (redis-cli --pipe)")
        if rounds > 0 { try measureScan() }
        try measureConsole()
        return report
    }

    /// `RedisKeyspace.scan` to the end, 1,000 keys a `SCAN` (as `cachedeck keys` and the
    /// console), against `redis-cli --scan | wc -l` on each primary in turn.
    private func measureScan() throws {
        let keyspace = try RedisKeyspace(url: deployment.url)
        var times: [[Double]] = [[], []]
        for round in 0..<rounds {
            for side in [round % 2, 1 - round % 2] {
                let start = ContinuousClock.now
                let found =
                    side == 0
                    ? try keyspace.scan().finish().keysFound
                    : try deployment.primaryURLs.reduce(0) { $0 + (try Self.redisCLIScanCount($1)) }
                guard found >= keys else { throw BenchError("scan found \(found) of \(keys) keys") }
                let perKey = (ContinuousClock.now - start).nanoseconds / Double(keys)
                times[side].append(perKey)
                progress("  \(side == 0 ? "keyspace scan" : "redis-cli --scan"): \(Format.nanoseconds(perKey)) ns/key")
            }
        }
        report.add(
            ReportRow(
                operation: "keyspace scan of \(Format.count(keys)) keys, per key (vs redis-cli --scan | wc -l)",
                times: Timing.Pair(cacheCore: Timing.median(times[0]), baseline: Timing.median(times[1])),
                budget: .atMost(2, label: "≤ 2×")))
    }

    /// The console in its own process while this one `PING`s every primary in turn, one
    /// every half millisecond, as another client; the same `PING`s before, with the server idle.
    private func measureConsole() throws {
        let probes = try deployment.primaryURLs.map { try RedisRawClient(url: $0) }
        var idle = LatencySample()
        for index in 0..<4000 { try idle.ping(probes[index % probes.count]) }
        let worker = Process()
        worker.executableURL = URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0])
        worker.arguments = ["keyspace-console", "--url", deployment.url]
        let output = Pipe()
        worker.standardOutput = output
        try worker.run()
        var busy = LatencySample()
        while worker.isRunning { try busy.ping(probes[busy.count % probes.count]) }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        worker.waitUntilExit()
        guard worker.terminationStatus == 0 else { throw BenchError("the console worker failed") }
        let figures = try JSONDecoder().decode(KeyspaceConsoleCommand.Figures.self, from: data)
        guard figures.keysFound == keys else { throw BenchError("the console counted \(figures.keysFound) of \(keys) keys") }
        for (name, fraction) in [("p50", 0.5), ("p99", 0.99)] {
            report.add(
                ReportRow(
                    operation: "another client's PING, \(name), while the console scans (vs idle)",
                    times: Timing.Pair(cacheCore: busy.percentile(fraction), baseline: idle.percentile(fraction)),
                    budget: .atMost(2, label: "≤ 2×")))
        }
        let firstScreen = figures.firstScreenMilliseconds * 1e6
        let memoryPass = figures.peakMegabytes <= Self.memoryBudget
        report.note(
            "console's first screen with the keyspace's prefixes: \(Format.milliseconds(firstScreen)) ms, counts "
                + (figures.firstScreenMarked ? "marked ≥" : "NOT marked ≥") + "; goal ≤ 1 s: "
                + (firstScreen <= Self.firstScreenBudget && figures.firstScreenMarked ? "PASS" : "FAIL"))
        report.note(
            "console's resident memory, peak \(String(format: "%.1f", figures.peakMegabytes)) MB, at the end "
                + "\(String(format: "%.1f", figures.residentMegabytes)) MB; goal ≤ 256 MB: \(memoryPass ? "PASS" : "FAIL")")
        report.note(
            "the console's scan took \(String(format: "%.1f", figures.scanSeconds)) s; PINGs: \(idle.count) idle, "
                + "\(busy.count) during it; p99 idle \(Format.microseconds(idle.percentile(0.99))) µs, during "
                + "\(Format.microseconds(busy.percentile(0.99))) µs")
    }

    /// Runs `redis-cli -u URL --scan | wc -l` and returns the count it printed.
    static func redisCLIScanCount(_ url: String) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "redis-cli -u \"$URL\" --scan | wc -l"]
        process.environment = ["URL": url, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let count = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw BenchError("redis-cli --scan failed (is redis-cli installed?)") }
        return count
    }
}
