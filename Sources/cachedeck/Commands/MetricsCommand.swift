import ArgumentParser
import CacheCore
import CacheCoreRedis
import ForeignCaches
import Foundation

/// `cachedeck metrics (FILE | redis://…) [--listen HOST:PORT]`
struct MetricsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract: "Serve the statistics as Prometheus / OpenMetrics text over HTTP, for dashboards.",
        discussion: """
            GET http://HOST:PORT/metrics reads the file (or RedisStore) afresh and answers with, per \
            namespace, entries, expired entries and bytes (gauges); the reads, hits, misses, sets, \
            removes, evictions, expirations, invalidations and load failures of every attached process \
            as counters (cachedeck_hits_total, ...) that count from the start of the hour the server \
            started, so rate() applies; the operations per second and hit ratio of the last minute \
            (window="1m" gauges; on a RedisStore every client's per-minute counts of this minute and the \
            one before); and the processes attached. The same numbers as `namespaces --json` and \
            `stats --json`. Port 0 picks a free port (the first line says which). Runs until Ctrl-C or \
            SIGTERM.
            """)

    @OptionGroup var store: StoreArguments
    @OptionGroup var redis: RedisPrefixArguments
    @Option(help: "The IPv4 address and port to listen on.") var listen = "127.0.0.1:9464"

    func run() throws {
        if (try? ForeignCache.recognise(path: store.file)) != nil {
            throw Failure("a foreign cache records no telemetry; metrics serves CacheDeck files and RedisStores")
        }
        // Counters start on an hour: telemetry is rolled into hour buckets (a file's) or kept
        // by the minute (Redis'), so what they count never moves out of the span they sum.
        let hour: Int64 = 3_600_000
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let start = now - now % hour
        let exposition: () throws -> MetricsExposition
        if let inspector = try redis.inspector(for: store.file) {
            exposition = {
                let clients = try inspector.clients()
                let namespaces = try inspector.namespaceSummaries()
                let elapsed = Duration.milliseconds(Int64(Date().timeIntervalSince1970 * 1000) - start)
                var totals: [String: Activity] = [:]
                for namespace in namespaces {
                    totals[namespace.name] = try inspector.activity(namespace: namespace.name, last: elapsed)
                }
                return MetricsExposition(
                    namespaces: namespaces, window: "1m", totals: totals, countersStart: start,
                    processes: (clients.filter(\.isLive).count, clients.count))
            }
        } else {
            let inspector = try store.openForReading().inspector
            exposition = {
                let processes = try inspector.processes()
                let namespaces = try inspector.namespaces()
                var totals: [String: Activity] = [:]
                for namespace in namespaces {
                    totals[namespace.name] = try inspector.activity(namespace: namespace.name, from: start, until: .max)
                }
                return MetricsExposition(
                    namespaces: namespaces, window: "1m", totals: totals, countersStart: start,
                    processes: (processes.filter(\.isLive).count, processes.count))
            }
        }
        _ = try exposition()
        let interruption = Interruption()
        let server = try MetricsServer(listen: listen)
        // Unbuffered: a supervisor (or a test) reads the port as soon as it listens.
        FileHandle.standardOutput.write(
            Data("Serving metrics on http://\(server.address):\(server.port)/metrics (Ctrl-C stops)\n".utf8))
        server.serve(until: { interruption.happened }) { try exposition().text() }
        FileHandle.standardOutput.write(Data("Stopped.\n".utf8))
    }
}
