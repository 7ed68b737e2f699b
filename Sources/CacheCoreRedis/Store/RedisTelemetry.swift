import CacheCore
import Foundation
import Logging
import Synchronization

/// Writes a ``RedisStore``'s counters and heartbeat under its prefix, in the background
/// every `StatisticsOptions/telemetryInterval` (never per operation), so a console can show
/// every host's hit rates: `HINCRBY` of what was counted since the last write into this
/// client's hash per namespace, the same into the per-minute hashes every client shares (per
/// namespace and for every namespace together, kept as long as the file store keeps 1-minute
/// buckets), and its heartbeat hash with a TTL of three intervals.
final class RedisTelemetry: Sendable {
    /// This store's client id (from `INCR <prefix>clientseq`).
    let clientID: Int64
    /// The server, or the cluster (every telemetry key carries the store's tag: one slot).
    private let servers: RedisServers
    private let keys: RedisKeys
    private let registry: StatisticsRegistry
    private let interval: Duration
    private let clock: any CacheClock
    /// How long a per-minute hash is kept after its last write, in milliseconds.
    private let minuteLife: Int64
    private let logger: Logger
    /// What was written so far, per namespace.
    private let written = Mutex<[String: CacheStatistics]>([:])
    private let worker = Mutex<BackgroundWorker?>(nil)
    private let isFailing = Atomic(false)

    /// Registers the client (host, pid, program) and starts the background writes.
    init(
        servers: RedisServers, keys: RedisKeys, registry: StatisticsRegistry, interval: Duration, options: StoreOptions
    ) throws {
        self.servers = servers
        self.keys = keys
        self.registry = registry
        self.interval = interval
        self.clock = options.clock
        self.minuteLife = Self.minuteLife(options.statistics.retention)
        self.logger = options.logger
        let identity = ProcessIdentity.current(program: options.statistics.programName)
        let now = options.clock.nowMilliseconds()
        clientID = try servers.withConnection(forKey: keys.clients) { connection in
            guard let id = try connection.command(["INCR", RedisArgument(keys.clientSequence)]).integer else {
                throw RedisError.server("INCR did not answer a number")
            }
            let client = keys.client(id)
            _ = try connection.pipeline([
                [
                    "HSET", RedisArgument(client), "host", RedisArgument(identity.host), "pid",
                    RedisArgument(Int(identity.pid)), "program", RedisArgument(identity.program), "started",
                    RedisArgument(now), "seen", RedisArgument(now), "heartbeat", RedisArgument(interval.milliseconds),
                ],
                ["PEXPIRE", RedisArgument(client), RedisArgument(Self.heartbeatLife(interval))],
                ["ZADD", RedisArgument(keys.clients), RedisArgument(now), RedisArgument(id)],
            ])
            return id
        }
        worker.withLock {
            $0 = BackgroundWorker(name: "CacheCore Redis telemetry", firstDelay: interval) { [weak self] in
                self?.reportLoggingFailures()
                return interval
            }
        }
    }

    /// Writes what was counted since the last write, and the heartbeat, now.
    func report(stopping: Bool = false) throws {
        let totals = registry.totals()
        let previous = written.withLock { $0 }
        let now = clock.nowMilliseconds()
        let minute = now - ((now % Self.minute) + Self.minute) % Self.minute
        var commands: [[RedisArgument]] = []
        var overall = CacheStatistics.zero
        for (namespace, total) in totals.sorted(by: { $0.key < $1.key }) {
            let delta = total - (previous[namespace] ?? .zero)
            guard !delta.isZero else { continue }
            overall += delta
            commands += Self.increments(keys.statistics(client: clientID, namespace: namespace), delta, life: Self.day)
            commands += Self.increments(
                keys.minuteStatistics(namespace: namespace, minute: minute), delta, life: minuteLife)
        }
        if !overall.isZero {
            commands += Self.increments(
                keys.minuteStatistics(namespace: nil, minute: minute), overall, life: minuteLife)
        }
        let client = RedisArgument(keys.client(clientID))
        commands.append(["HSET", client, "seen", RedisArgument(now)])
        if stopping {
            commands.append(["HSET", client, "stopped", RedisArgument(now)])
            commands.append(["PEXPIRE", client, RedisArgument(Self.day)])
        } else {
            commands.append(["PEXPIRE", client, RedisArgument(Self.heartbeatLife(interval))])
        }
        commands.append(["ZADD", RedisArgument(keys.clients), RedisArgument(now), RedisArgument(clientID)])
        let replies = try servers.withConnection(forKey: keys.clients) { connection in try connection.pipeline(commands) }
        if let failure = replies.first(where: { if case .error = $0 { true } else { false } }) {
            throw RedisError.server("telemetry write failed: \(failure)")
        }
        written.withLock { $0 = totals }
    }

    /// The last report (marking this client stopped); stops the background writes.
    func finish() {
        stop()
        do {
            try report(stopping: true)
        } catch {
            logger.warning("could not write the final Redis telemetry", metadata: ["error": "\(error)"])
        }
    }

    /// Stops the background writes (without a last report).
    func stop() {
        let running = worker.withLock { worker in
            defer { worker = nil }
            return worker
        }
        running?.stop()
    }

    private func reportLoggingFailures() {
        do {
            try report()
            isFailing.store(false, ordering: .relaxed)
        } catch {
            if !isFailing.exchange(true, ordering: .relaxed) {
                logger.warning("could not write Redis telemetry; retrying", metadata: ["error": "\(error)"])
            }
        }
    }

    /// One day, in milliseconds: how long counters and a stopped client's hash are kept.
    static let day: Int64 = 86_400_000

    /// One minute, in milliseconds: the width of the shared per-minute hashes.
    static let minute: Int64 = 60_000

    /// How long per-minute hashes are kept: as long as `retention` keeps 1-minute buckets
    /// (a day by default), else its longest tier's time, at least a minute.
    static func minuteLife(_ retention: TelemetryRetention) -> Int64 {
        let tier =
            retention.tiers.first { $0.resolution.milliseconds == minute }
            ?? retention.tiers.max { $0.keptFor < $1.keptFor }
        return max(tier?.keptFor.milliseconds ?? day, minute)
    }

    /// `HINCRBY` of every nonzero field of `delta` into `hash`, then `PEXPIRE` of `life` ms.
    private static func increments(_ hash: String, _ delta: CacheStatistics, life: Int64) -> [[RedisArgument]] {
        let key = RedisArgument(hash)
        var commands: [[RedisArgument]] = Self.fields(delta).filter { $0.1 != 0 }.map { field, amount in
            ["HINCRBY", key, RedisArgument(field), RedisArgument(amount)]
        }
        commands.append(["PEXPIRE", key, RedisArgument(life)])
        return commands
    }

    private static func heartbeatLife(_ interval: Duration) -> Int64 { max(interval.milliseconds, 1) * 3 }

    /// The hash fields of `statistics` (`CacheStatistics` field names; load time in nanoseconds).
    static func fields(_ statistics: CacheStatistics) -> [(String, Int)] {
        return [
            ("memoryHits", statistics.memoryHits), ("diskHits", statistics.diskHits), ("misses", statistics.misses),
            ("staleHits", statistics.staleHits), ("sets", statistics.sets), ("removes", statistics.removes),
            ("evictions", statistics.evictions), ("evictedBytes", statistics.evictedBytes),
            ("expirations", statistics.expirations), ("invalidations", statistics.invalidations),
            ("loadSuccesses", statistics.loadSuccesses), ("loadFailures", statistics.loadFailures),
            ("loadNanoseconds", Int(statistics.totalLoadTime.nanosecondCount)),
        ]
    }

    /// The statistics a counter hash holds.
    static func statistics(_ hash: [String: Int]) -> CacheStatistics {
        CacheStatistics(
            memoryHits: hash["memoryHits"] ?? 0, diskHits: hash["diskHits"] ?? 0, misses: hash["misses"] ?? 0,
            staleHits: hash["staleHits"] ?? 0, sets: hash["sets"] ?? 0, removes: hash["removes"] ?? 0,
            evictions: hash["evictions"] ?? 0, evictedBytes: hash["evictedBytes"] ?? 0,
            expirations: hash["expirations"] ?? 0, invalidations: hash["invalidations"] ?? 0,
            loadSuccesses: hash["loadSuccesses"] ?? 0, loadFailures: hash["loadFailures"] ?? 0,
            totalLoadTime: .nanoseconds(hash["loadNanoseconds"] ?? 0))
    }
}
