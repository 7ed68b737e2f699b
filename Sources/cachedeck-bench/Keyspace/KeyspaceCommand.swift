import ArgumentParser
import Foundation

/// `cachedeck-bench keyspace`: the keyspace browser on a large database no store wrote.
struct KeyspaceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyspace",
        abstract:
            "The keyspace scan vs redis-cli --scan; the console's first screen, memory and other clients' latency."
    )

    @Option(help: "Keys in the database (9 in 10 user:N, 1 in 10 cache:page:N).")
    var keys = 1_000_000

    @Flag(help: "A private 3+3 Redis Cluster instead of one redis-server.")
    var cluster = false

    @Option(help: "Scans of each side, alternating which goes first (0: the console's figures only).")
    var rounds = 3

    func validate() throws {
        if keys < 1000 { throw ValidationError("--keys must be at least 1000") }
        if rounds < 0 { throw ValidationError("--rounds must not be negative") }
    }

    func run() throws {
        let deployment = try KeyspaceDeployment(cluster: cluster)
        let benchmark = KeyspaceBenchmark(deployment: deployment, keys: keys, rounds: rounds)
        print(benchmark.summary + "\n")
        print(try benchmark.run().rendered())
    }
}
