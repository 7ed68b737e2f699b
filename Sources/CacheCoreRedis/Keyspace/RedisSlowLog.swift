import CacheCore
import Foundation

/// One node's slow log (`SLOWLOG GET`) and latest latency spikes (`LATENCY LATEST`), read
/// only. Replies are untrusted: entries, arguments and texts are bounded and escaped.
package struct RedisNodeLatency: Sendable, Hashable, Codable {
    /// `host:port`.
    package var node: String
    /// `primary` or `replica`.
    package var role: String
    /// The newest slow commands, newest first (at most the count asked for).
    package var slowLog: [SlowCommand]
    /// `SLOWLOG LEN`: how many the server keeps (`nil`: not read).
    package var slowLogLength: Int?
    /// The latest spike of each event the latency monitor saw (empty when it is off:
    /// `latency-monitor-threshold` 0).
    package var latency: [LatencyEvent]
    /// Why this node could not be read (down, or the user may not run `SLOWLOG`), else `nil`.
    package var failure: String?

    /// A command the server logged as slow.
    package struct SlowCommand: Sendable, Hashable, Codable {
        /// The entry's id (grows by one per entry).
        package var id: Int64
        /// When it ran, in seconds since the epoch.
        package var startedAt: Int64
        /// How long it ran, in microseconds (without I/O).
        package var microseconds: Int64
        /// The command and its arguments as printable text, each escaped and cut.
        package var command: String
        /// The client's `ip:port` and name, escaped (empty when the server did not say).
        package var client: String
    }

    /// The latest spike of one latency event.
    package struct LatencyEvent: Sendable, Hashable, Codable {
        /// The event (`command`, `fast-command`, `fork`, `expire-cycle`, …), escaped.
        package var event: String
        /// When the latest spike happened, in seconds since the epoch.
        package var latestAt: Int64
        /// The latest spike, in milliseconds.
        package var latestMilliseconds: Int64
        /// The largest spike since the server started or the event was reset, in milliseconds.
        package var maxMilliseconds: Int64
    }

    /// The most entries one node's slow log is read with.
    package static let maxEntries = 1000
    /// The most arguments of a slow command kept (Redis itself keeps 32).
    static let maxArguments = 32
    /// The most characters of an argument kept (Redis itself keeps 128 bytes).
    static let maxArgumentLength = 128
    /// The most latency events kept.
    static let maxEvents = 100

    /// Reads the slow log (its newest `count` entries) and latency of the node on `connection`.
    static func read(on connection: RedisConnection, node: String, role: String, count: Int) -> RedisNodeLatency {
        var result = RedisNodeLatency(node: node, role: role, slowLog: [], slowLogLength: nil, latency: [])
        let count = max(1, min(count, maxEntries))
        do {
            let replies = try connection.pipeline([
                ["SLOWLOG", "GET", RedisArgument(count)], ["SLOWLOG", "LEN"], ["LATENCY", "LATEST"],
            ])
            if case .error(let message) = replies[0] { throw RedisError(serverMessage: message, endpoint: node) }
            result.slowLog = (replies[0].array ?? []).prefix(count).compactMap(slowCommand)
            result.slowLogLength = replies[1].integer.map { Int(clamping: $0) }
            result.latency = (replies[2].array ?? []).prefix(maxEvents).compactMap(latencyEvent)
        } catch {
            result.failure = RedisError.oneLine("\(error)")
        }
        return result
    }

    /// One `SLOWLOG GET` entry: `[id, time, µs, [args…], client, name]` (the last two since 4.0).
    private static func slowCommand(_ reply: RedisReply) -> SlowCommand? {
        guard let parts = reply.array, parts.count >= 4, let id = parts[0].integer, let time = parts[1].integer,
            let duration = parts[2].integer
        else { return nil }
        let arguments = (parts[3].array ?? []).prefix(maxArguments).map { argument in
            printable(argument.data ?? Data((argument.string ?? "").utf8))
        }
        let client = parts.dropFirst(4).prefix(2).compactMap { $0.data.map(printable) }.filter { !$0.isEmpty }
        return SlowCommand(
            id: id, startedAt: time, microseconds: max(0, duration), command: arguments.joined(separator: " "),
            client: client.joined(separator: " "))
    }

    /// One `LATENCY LATEST` entry: `[event, time, latest ms, max ms]`.
    private static func latencyEvent(_ reply: RedisReply) -> LatencyEvent? {
        guard let parts = reply.array, parts.count >= 4, let name = parts[0].data, let time = parts[1].integer,
            let latest = parts[2].integer, let most = parts[3].integer
        else { return nil }
        return LatencyEvent(
            event: printable(name), latestAt: time, latestMilliseconds: max(0, latest), maxMilliseconds: max(0, most))
    }

    /// Bytes as one short printable word: `PrintableKey` text with control characters as
    /// `\xNN`, cut to ``maxArgumentLength`` characters (`…` marks the cut).
    static func printable(_ bytes: Data) -> String {
        var text = ""
        for scalar in PrintableKey.text(Data(bytes.prefix(maxArgumentLength * 4))).unicodeScalars {
            text += scalar.properties.generalCategory == .control || scalar == "\u{7f}"
                ? String(format: "\\x%02x", scalar.value & 0xff) : String(scalar)
        }
        return text.count > maxArgumentLength ? text.prefix(maxArgumentLength - 1) + "…" : text
    }
}

extension RedisKeyspace {
    /// The slow log (newest `count` entries) and latest latency spikes of every node: the
    /// server, or every node of the cluster (a node that is down is listed with its failure).
    package func latency(count: Int = 128) throws -> [RedisNodeLatency] {
        switch servers {
        case .single(let pool):
            let node = "\(pool.endpoint.host):\(pool.endpoint.port)"
            return [
                try pool.withConnection { connection in
                    let role = RedisServerInfo.parse(try connection.command(["INFO", "replication"]).string ?? "")["role"]
                    return RedisNodeLatency.read(
                        on: connection, node: node, role: role == "slave" ? "replica" : "primary", count: count)
                }
            ]
        case .cluster(let router):
            return try (clusterNodes() ?? []).map { node in
                var down = RedisNodeLatency(
                    node: node.address, role: node.role, slowLog: [], slowLogLength: nil, latency: [],
                    failure: "down")
                guard !node.isDown, let address = ClusterAddress(redirection: Substring(node.address)) else {
                    return down
                }
                do {
                    return try router.pool(address).withConnection { connection in
                        RedisNodeLatency.read(on: connection, node: node.address, role: node.role, count: count)
                    }
                } catch {
                    down.failure = RedisError.oneLine("\(error)")
                    return down
                }
            }
        }
    }
}
