import ArgumentParser
import Foundation

/// `cachedeck-bench peers`: the same workloads on CacheCore, raw SQLite (the floor: see
/// ``FloorBaseline``) and python-diskcache.
struct PeersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peers",
        abstract: "CacheCore vs raw SQLite C calls on a minimal table vs python-diskcache: get/set/delete p50 and p99.",
        discussion: """
            Rows: 100-byte and 4 KB values, get-heavy (10:1) and set-heavy (1:10) mixes, 1 and 4 \
            processes. Every engine runs the same plan per worker, each operation timed on its own. \
            python-diskcache is installed with pip into .build-peers/venv on first use.
            """)

    @Flag(help: "Full counts: 100,000 keys and 20,000 operations per worker (default: 10,000 and 2,000).")
    var full = false

    @Option(help: "Where to write the Markdown table.") var output = ".build-peers/peers.md"

    func run() throws {
        let sizes = full ? PeerSizes(keys: 100_000, operations: 20_000) : PeerSizes(keys: 10_000, operations: 2_000)
        let folder = ".build-peers"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var diskcache: DiskcachePeer?
        do {
            diskcache = try DiskcachePeer.prepare(in: folder)
        } catch {
            print("diskcache unavailable (\(error)); its columns stay empty")
        }
        let directory = try TemporaryDirectory(prefix: "cachedeck-peers")
        defer { directory.remove() }
        var rows: [PeerRow] = []
        for scenario in PeerScenario.all() {
            var results: [PeerEngine: PeerLatencies] = [:]
            for engine in PeerEngine.allCases {
                let path = directory.file(
                    "\(engine.rawValue)-\(scenario.valueSize)-\(scenario.mix.rawValue)-\(scenario.processes)")
                if engine == .diskcache {
                    guard let diskcache else { continue }
                    results[engine] = try runDiskcache(diskcache, directory: path, scenario: scenario, sizes: sizes)
                } else {
                    try PeerEngine.populateSQLite(engine, path: path, keys: sizes.keys, valueSize: scenario.valueSize)
                    results[engine] = try runWorkers(engine, path: path, scenario: scenario, sizes: sizes)
                }
            }
            let scenarioRows = PeerRow.rows(scenario: scenario, results: results)
            for row in scenarioRows { progress(row.line) }
            rows += scenarioRows
        }
        let table = PeerRow.markdown(rows, sizes: sizes)
        try table.write(toFile: output, atomically: true, encoding: .utf8)
        print("\n" + table + "\nWritten to \(output)")
    }

    private func runWorkers(_ engine: PeerEngine, path: String, scenario: PeerScenario, sizes: PeerSizes) throws
        -> PeerLatencies
    {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return try gather(
            (0..<scenario.processes).map { worker in
                [
                    executable, "peers-worker", "--engine", engine.rawValue, "--path", path, "--value-size",
                    "\(scenario.valueSize)", "--mix", scenario.mix.rawValue, "--keys", "\(sizes.keys)", "--operations",
                    "\(sizes.operations)", "--processes", "\(scenario.processes)", "--worker", "\(worker)",
                ]
            })
    }

    private func runDiskcache(_ peer: DiskcachePeer, directory: String, scenario: PeerScenario, sizes: PeerSizes)
        throws -> PeerLatencies
    {
        _ = try gather([peer.arguments("populate", directory: directory, scenario: scenario, sizes: sizes, worker: 0)])
        return try gather(
            (0..<scenario.processes).map {
                peer.arguments("run", directory: directory, scenario: scenario, sizes: sizes, worker: $0)
            })
    }

    /// Starts every command at once, waits for all, and merges their JSON latencies.
    private func gather(_ commands: [[String]]) throws -> PeerLatencies {
        let processes = try commands.map { arguments in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return (process, output)
        }
        var merged = PeerLatencies()
        for (process, output) in processes {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw BenchError("a worker failed: \(process.arguments ?? [])")
            }
            if data.isEmpty { continue }
            merged.add(try JSONDecoder().decode(PeerLatencies.self, from: data))
        }
        return merged
    }
}
