import ArgumentParser
import CacheCore
import CacheConsole
import CacheCoreRedis

/// `cachedeck slowlog URL [--count N] [--json]`
struct SlowLogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slowlog",
        abstract: "Show the slow log and latest latency spikes of a Redis server, or of every node of a cluster.",
        discussion: """
            Read-only: SLOWLOG GET, SLOWLOG LEN and LATENCY LATEST on each node (redis+cluster:// reads every node, \
            replicas too; a node that is down or refuses, e.g. an ACL user without +slowlog, is listed with why). \
            Arguments show as Redis kept them (at most 32, each cut to 128 bytes), escaped. Latency spikes are \
            recorded only while latency-monitor-threshold is above 0.
            """)

    @OptionGroup var redis: RedisArguments

    @Option(help: "The newest entries to show per node, 1 to 1000.")
    var count = 20

    @Flag(help: "Print JSON (a stable, documented shape) instead of text.")
    var json = false

    func validate() throws {
        if !(1...RedisNodeLatency.maxEntries).contains(count) {
            throw ValidationError("--count must be between 1 and \(RedisNodeLatency.maxEntries)")
        }
    }

    func run() throws {
        let nodes = try redis.open().latency(count: count)
        if json { return try JSONOutput.print(nodes) }
        let now = ConsoleRuntime.now()
        for (index, node) in nodes.enumerated() {
            if index > 0 { print() }
            if let failure = node.failure {
                print("\(node.node) (\(node.role)): cannot read: \(failure)")
                continue
            }
            let kept = node.slowLogLength.map { " of \(Formatting.count($0)) kept" } ?? ""
            print("\(node.node) (\(node.role)): slow log, newest \(node.slowLog.count)\(kept)")
            print(
                Table(
                    headers: ["id", "when", "took", "command", "client"],
                    rows: node.slowLog.map { entry in
                        [
                            String(entry.id), Figures.relative(entry.startedAt.multipliedClamped(by: 1000), now: now),
                            KeyspaceText.duration(microseconds: entry.microseconds), entry.command, entry.client,
                        ]
                    }, textColumns: [1, 3, 4]
                ).rendered)
            print()
            print("\(node.node) (\(node.role)): latency spikes" + (node.latency.isEmpty ? " (none recorded)" : ""))
            guard !node.latency.isEmpty else { continue }
            print(
                Table(
                    headers: ["event", "when", "latest", "max"],
                    rows: node.latency.map { event in
                        [
                            event.event, Figures.relative(event.latestAt.multipliedClamped(by: 1000), now: now),
                            "\(Formatting.count(Int(clamping: event.latestMilliseconds))) ms",
                            "\(Formatting.count(Int(clamping: event.maxMilliseconds))) ms",
                        ]
                    }, textColumns: [0, 1]
                ).rendered)
        }
    }
}
