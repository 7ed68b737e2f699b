import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import ForeignCaches
import CacheCoreRedis

/// `cachedeck namespaces (FILE | redis://…)`
struct NamespacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "namespaces",
        abstract: "List the namespaces: entries, expired entries, bytes, hit rate, ops/s, health, version, policy.",
        discussion: """
            Expired entries are stored but no longer readable; a sweep removes them. Hit rate, ops/s \
            and health cover the last minute of every attached process (– when nothing was read). \
            On a RedisStore (a redis:// URL) the counts come from a full SCAN of the keyspace, and hit \
            rate, ops/s and health every client's per-minute counts of this minute and the one before.
            """)

    @OptionGroup var store: StoreArguments
    @OptionGroup var redis: RedisPrefixArguments
    @OptionGroup var output: OutputArguments

    func run() throws {
        if let foreign = ForeignReads.recognise(store.file, json: output.json) { return try foreign.namespaces() }
        let namespaces =
            try redis.inspector(for: store.file)?.namespaceSummaries() ?? store.openForReading().inspector.namespaces()
        if output.json { return try JSONOutput.print(namespaces) }
        print(
            Table(
                headers: [
                    "namespace", "entries", "expired", "bytes", "hit rate", "ops/s", "health", "version", "policy",
                ],
                rows: namespaces.map { namespace in
                    [
                        namespace.name, Formatting.count(namespace.entryCount),
                        Formatting.count(namespace.expiredEntryCount), Formatting.bytes(Int(namespace.bytes)),
                        TimeText.percent(namespace.lastMinute.hitRate),
                        Figures.rate(namespace.lastMinute.operationsPerSecond), namespace.lastMinute.health.rawValue,
                        namespace.version.isEmpty ? Table.none : namespace.version, Figures.policy(namespace.policy),
                    ]
                }, textColumns: [0, 7, 8]
            ).rendered)
    }
}
