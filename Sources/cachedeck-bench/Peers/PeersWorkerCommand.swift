import ArgumentParser
import Foundation

/// `cachedeck-bench peers-worker`: one process of a peers scenario (spawned by `peers`).
struct PeersWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peers-worker", abstract: "One worker process of `peers` (internal).", shouldDisplay: false)

    @Option var engine: String
    @Option var path: String
    @Option var valueSize: Int
    @Option var mix: String
    @Option var keys: Int
    @Option var operations: Int
    @Option var processes: Int
    @Option var worker: Int

    func run() throws {
        guard let engine = PeerEngine(rawValue: engine), let mix = PeerScenario.Mix(rawValue: mix) else {
            throw ValidationError("unknown engine or mix")
        }
        let scenario = PeerScenario(valueSize: valueSize, mix: mix, processes: processes)
        let plan = PeerPlan(scenario: scenario, sizes: PeerSizes(keys: keys, operations: operations), worker: worker)
        let latencies = try PeerEngine.run(engine, plan: plan, path: path, valueSize: valueSize)
        print(String(decoding: try JSONEncoder().encode(latencies), as: UTF8.self))
    }
}
