import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import ForeignCaches
import CacheCoreRedis

/// `cachedeck info FILE` or `cachedeck info redis://HOST:PORT/DB`
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract:
            "Show a cache file (or a Redis server) at a glance: sizes, format, totals, activity and attached processes.",
        discussion: """
            Given a redis:// URL it shows the server instead: version, role, memory, maxmemory and its policy, and \
            the exact key count (DBSIZE) of the database; given a redis+cluster:// URL, the primaries summed, \
            every node with its role, slots (and their ranges), keys, memory and ops/s (a node that is down shows as \
            DOWN), and the node each namespace of the RedisStore under --redis-prefix lives on. \
            Reads the file without changing it, even while apps write it. Activity is what every \
            attached process counted in the last minute (their telemetry). A process is live while \
            it writes heartbeats; a stale one stopped or disappeared without closing.
            """)

    @OptionGroup var store: StoreArguments
    @OptionGroup var redis: RedisPrefixArguments
    @OptionGroup var output: OutputArguments

    func run() throws {
        if RedisKeyspace.isURL(store.file) { return try redisInfo() }
        if let foreign = ForeignReads.recognise(store.file, json: output.json) { return try foreign.info() }
        let opened = try store.openForReading()
        let summary = try opened.inspector.summary()
        let owner = opened.fileOwner
        if output.json { return try JSONOutput.print(summary) }
        let minute = summary.lastMinute
        let compactable = summary.freelistCount * summary.pageSize + Int(summary.walBytes)
        print(
            Fields(
                items: [
                    ("File", summary.path + (owner.map { ", owned by \($0)" } ?? "")),
                    ("Format", "CacheDeck cache, format \(summary.formatVersion)"),
                    (
                        "On disk",
                        "\(Formatting.bytes(Int(summary.fileBytes + summary.walBytes))) "
                            + "(file \(Formatting.bytes(Int(summary.fileBytes))), WAL \(Formatting.bytes(Int(summary.walBytes))))"
                    ),
                    (
                        "Pages",
                        "\(Formatting.count(summary.pageCount)) of \(Formatting.count(summary.pageSize)) B, "
                            + "\(Formatting.count(summary.freelistCount)) free"
                    ),
                    (
                        "Compactable",
                        "\(Formatting.bytes(compactable)) (free pages and WAL; `cachedeck compact` gives them back)"
                    ),
                    (
                        "Contents",
                        "\(Formatting.entries(summary.entryCount)), \(Formatting.bytes(Int(summary.payloadBytes))) "
                            + "of keys and values, in \(Formatting.namespaces(summary.namespaceCount))"
                    ),
                    (
                        "Last minute",
                        "\(Formatting.count(minute.requests)) requests, hit rate \(TimeText.percent(minute.hitRate)) "
                            + "(\(minute.health.rawValue)), \(Figures.rate(minute.operationsPerSecond)) ops/s, "
                            + "\(Formatting.count(minute.evictions)) evictions"
                    ),
                    ("Processes", "\(summary.liveProcessCount) live of \(summary.processes.count) attached"),
                ]
            ).rendered)
        guard !summary.processes.isEmpty else { return }
        print()
        print(
            Table(
                headers: ["id", "pid", "host", "program", "started", "last heartbeat", "state"],
                rows: summary.processes.map { process in
                    [
                        "\(process.id)", "\(process.pid)", process.host, process.program,
                        Figures.relative(process.startedAt, now: summary.now),
                        Figures.relative(process.lastHeartbeatAt, now: summary.now),
                        process.isLive ? "live" : process.stoppedAt != nil ? "stopped" : "stale",
                    ]
                }, textColumns: [2, 3]
            ).rendered)
    }

    /// The Redis server at `store.file` (a URL) at a glance.
    private func redisInfo() throws {
        let keyspace = try RedisKeyspace(url: store.file)
        var info = try keyspace.server()
        let topology = try keyspace.topology(storePrefix: redis.redisPrefix)
        info.nodes = topology.isCluster ? topology.nodes : nil
        if output.json { return try JSONOutput.print(info) }
        print(
            Fields(items: [
                ("Server", "\(info.endpoint) (database \(info.database))"),
                ("Version", "Redis \(info.version), \(info.role)"),
                ("Memory", "\(Formatting.bytes(info.usedMemory)) used (\(Formatting.count(info.usedMemory)) B)"),
                (
                    "Max memory",
                    (info.maxMemory > 0 ? Formatting.bytes(info.maxMemory) : "no limit")
                        + ", policy \(info.maxMemoryPolicy)"
                ),
                ("Keys", "\(Formatting.count(info.keyCount)) (DBSIZE)"),
            ]).rendered)
        guard let nodes = info.nodes else { return }
        print()
        print(
            Table(
                headers: ["node", "role", "slots", "keys", "memory", "ops/s", "state"],
                rows: nodes.map { node in
                    [
                        node.address, node.role, node.role == "primary" ? KeyspaceText.slots(node) : Table.none,
                        node.keys.map(Formatting.count) ?? Table.none, node.usedMemory.map(Formatting.bytes) ?? Table.none,
                        node.opsPerSecond.map(Formatting.count) ?? Table.none, node.isDown ? "DOWN" : "up",
                    ]
                }, textColumns: [0, 1, 2, 6]
            ).rendered)
        guard !topology.namespaces.isEmpty else { return }
        print()
        print(
            Table(
                headers: ["namespace", "node", "slot", "entries"],
                rows: topology.namespaces.map { placement in
                    [
                        placement.name, placement.node ?? "no node serves its slot",
                        placement.slot.map(String.init) ?? Table.none,
                        KeyspaceText.entriesPlacement(placement, isCluster: true),
                    ]
                }, textColumns: [0, 1, 3]
            ).rendered)
    }
}
