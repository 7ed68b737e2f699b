import ArgumentParser
import CacheCoreRedis
import LocalRedis

/// `cachedeck-bench redis`: RedisStore against raw commands on the same server or cluster.
struct RedisCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redis",
        abstract:
            "RedisStore gets, sets, deletes and purges vs raw commands; near cache; coherence delay; other clients' "
            + "latency during a census (--cluster: on a private 3+3 Redis Cluster, and across a primary's failover)."
    )

    @Flag(help: "A short run with fewer operations and rounds.")
    var quick = false

    @Flag(help: "A private 3+3 Redis Cluster instead of one redis-server; ends with a primary killed.")
    var cluster = false

    @Option(help: "A Redis server to use (its database is flushed); default: a private redis-server.")
    var url: String?

    func validate() throws {
        if cluster && url != nil { throw ValidationError("--cluster starts its own cluster; leave out --url") }
    }

    func run() throws {
        let privateCluster = cluster ? try RedisCluster() : nil
        let server = url == nil && !cluster ? try RedisServer() : nil
        defer {
            privateCluster?.stop()
            server?.stop()
        }
        guard let target = url ?? server?.url ?? privateCluster?.url else { return }
        let directory = try TemporaryDirectory(prefix: "cachedeck-bench")
        defer { directory.remove() }
        let benchmark = RedisBenchmark(quick: quick, url: target, cluster: privateCluster, directory: directory)
        print(benchmark.summary + "\n")
        print(try benchmark.run().rendered())
    }
}
