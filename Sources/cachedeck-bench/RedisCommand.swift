import CacheCoreRedis
import ArgumentParser
import LocalRedis

/// `cachedeck-bench redis`: RedisStore against raw commands on the same server.
struct RedisCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redis",
        abstract: "RedisStore gets, sets, deletes and purges vs raw commands; near cache; coherence delay."
    )

    @Flag(help: "A short run with fewer operations and rounds.")
    var quick = false

    @Option(help: "A Redis server to use (its database is flushed); default: a private redis-server.")
    var url: String?

    func run() throws {
        let server = url == nil ? try RedisServer() : nil
        defer { server?.stop() }
        guard let target = url ?? server?.url else { return }
        let directory = try TemporaryDirectory(prefix: "cachedeck-bench")
        defer { directory.remove() }
        let benchmark = RedisBenchmark(quick: quick, url: target, directory: directory)
        print(benchmark.summary + "\n")
        print(try benchmark.run().rendered())
    }
}
