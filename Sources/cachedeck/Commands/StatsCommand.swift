import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import ForeignCaches
import CacheCoreRedis
import Foundation

/// `cachedeck stats (FILE | redis://…) [NAMESPACE] [--watch [--interval S] [--count N]]`
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show hit rates and counters from the telemetry of every process attached to the file.",
        discussion: """
            Without --watch: totals over the last minute, 5 minutes, hour and day. With --watch: one \
            line per interval, like redis-cli --stat (hits, misses, sets, evictions and expirations \
            per second, hit rate, live processes), until Ctrl-C or --count lines. Apps write their \
            counters about once a second, so each line covers whole seconds that have ended. On a \
            RedisStore (a redis:// URL): the same windows from every client's per-minute counts, each \
            reaching back to the start of its first minute (no --watch).
            """)

    @OptionGroup var store: StoreArguments
    @OptionGroup var redis: RedisPrefixArguments
    @OptionGroup var scope: NamespaceArgument
    @Flag(name: .shortAndLong, help: "Print a line per interval until interrupted.") var watch = false
    @Option(name: .shortAndLong, help: "Seconds per --watch line.") var interval = 1
    @Option(name: .shortAndLong, help: "Stop --watch after this many lines.") var count: Int?
    /// The namespace shown, if one was named.
    private var namespace: String? { scope.namespace }
    @OptionGroup var output: OutputArguments

    /// The spans the summary table shows.
    static let windows: [(name: String, duration: Duration)] = [
        ("1m", .seconds(60)), ("5m", .seconds(300)), ("1h", .seconds(3600)), ("24h", .seconds(86_400)),
    ]

    func validate() throws {
        guard (1...3600).contains(interval) else { throw ValidationError("--interval must be 1 to 3600 seconds") }
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        if !watch && (count != nil || interval != 1) { throw ValidationError("--interval and --count need --watch") }
        if watch && RedisKeyspace.isURL(store.file) {
            throw ValidationError("--watch reads cache files only (for Redis, the console shows live rates)")
        }
    }

    func run() throws {
        if let inspector = try redis.inspector(for: store.file) { return try run(on: inspector) }
        if let foreign = try? ForeignCache.recognise(path: store.file) {
            throw Failure("a \(foreign.kind.rawValue) cache records no telemetry; `cachedeck info` shows its totals")
        }
        let inspector = try store.openForReading().inspector
        if let namespace { _ = try inspector.namespace(namespace) }
        if watch {
            return try StatsWatch(inspector: inspector, namespace: namespace, json: output.json).run(
                interval: interval, count: count)
        }
        let processes = try inspector.processes()
        let windows = try Self.windows.map { window in
            WindowActivity(
                name: window.name, activity: try inspector.activity(namespace: namespace, last: window.duration))
        }
        try report(
            windows, live: processes.filter(\.isLive).count, of: processes.count,
            attached: ("attached process", "attached processes"))
    }

    /// On a RedisStore: the same windows, from every client's per-minute counts (each window
    /// reaches back to the start of the minute its start falls in).
    private func run(on inspector: RedisStoreInspector) throws {
        if let namespace, try !inspector.namespaces().contains(where: { $0.name == namespace }) {
            throw InspectorError.noSuchNamespace(namespace)
        }
        let clients = try inspector.clients()
        let windows = try Self.windows.map { window in
            WindowActivity(
                name: window.name, activity: try inspector.activity(namespace: namespace, last: window.duration))
        }
        try report(windows, live: clients.filter(\.isLive).count, of: clients.count, attached: ("client", "clients"))
    }

    /// Prints the windows' activity (as JSON with `--json`), from `total` processes or clients
    /// (`live` of them live), named `attached`.
    private func report(_ windows: [WindowActivity], live: Int, of total: Int, attached: (String, String)) throws {
        if output.json {
            return try JSONOutput.print(
                StatsReport(namespace: namespace, liveProcesses: live, processes: total, windows: windows))
        }
        print(
            "Activity of \(namespace.map { "namespace \($0)" } ?? "all namespaces"), from the telemetry of "
                + "\(Figures.counted(total, attached.0, attached.1)) (\(live) live)")
        print()
        print(
            Table(
                headers: [
                    "last", "requests", "hits", "misses", "stale", "hit rate", "health", "ops/s", "sets", "removes",
                    "evictions", "expirations", "invalidations", "load failures",
                ],
                rows: windows.map { window in
                    let activity = window.activity
                    return [window.name]
                        + [activity.requests, activity.hits, activity.misses, activity.staleHits].map(Formatting.count)
                        + [
                            TimeText.percent(activity.hitRate), activity.health.rawValue,
                            Figures.rate(activity.operationsPerSecond),
                        ]
                        + [
                            activity.sets, activity.removes, activity.evictions, activity.expirations,
                            activity.invalidations,
                        ].map(Formatting.count)
                        // No loader call recorded (a store without a loader): unknown, as the console says.
                        + [
                            activity.loadSuccesses.addingClamped(activity.loadFailures) > 0
                                ? Formatting.count(activity.loadFailures) : Table.none
                        ]
                }
            ).rendered)
    }
}

/// `stats --json`.
struct StatsReport: Encodable {
    let namespace: String?
    let liveProcesses: Int
    let processes: Int
    let windows: [WindowActivity]
}

/// One span of `stats --json`: `1m`, `5m`, `1h` or `24h`.
struct WindowActivity: Encodable {
    let name: String
    let activity: Activity
}
