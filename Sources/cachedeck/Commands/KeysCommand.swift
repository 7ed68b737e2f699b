import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// `cachedeck keys URL [PREFIX] [--separator :] [--limit N] [--json]`
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract:
            "List one level of any Redis keyspace as a prefix tree: prefixes and keys with counts, memory, type and TTL.",
        discussion: """
            Read-only: SCAN in bounded batches (MATCH PREFIX* inside a prefix), TYPE, PTTL, MEMORY USAGE and OBJECT \
            ENCODING; never KEYS, never a write. The level's keys print as the scan finds them, its prefixes (with \
            their totals) when it ends; --json prints the level, largest first, when the scan ends. Names split on the separator: `user:` groups user:1 and user:2. \
            Memory marked ~ is Redis' estimate (MEMORY USAGE samples large collections). Bytes that are not UTF-8 \
            show as \\xNN and may be typed so in PREFIX.
            """)

    @OptionGroup var redis: RedisArguments

    @Argument(help: "Show the level below this prefix, e.g. user: (default: the top level).")
    var prefix: String?

    @Option(help: "The separator names split on.")
    var separator = ":"

    @Option(help: "Show at most this many children, the largest first.")
    var limit = 1000

    @Flag(help: "Print JSON (a stable, documented shape) instead of a table.")
    var json = false

    func validate() throws {
        if separator.isEmpty { throw ValidationError("--separator must not be empty") }
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let keyspace = try redis.open(separator: separator)
        let scan = keyspace.scan(prefix: prefix.map(RedisKeyspace.bytes(ofTyped:)) ?? Data())
        if json {
            try scan.finish()
            return try JSONOutput.print(scan.level(limit: limit))
        }
        // Keys of the level print as the scan finds them; prefixes, whose totals need the
        // whole scan, follow at the end.
        let table = StreamedTable(
            headers: ["name", "type", "keys", "memory", "ttl"], widths: [32, 6, 10, 10, 8], rightAligned: [2, 3, 4])
        let now = ConsoleRuntime.now()
        print(table.header)
        var printed = 0
        var progress = try scan.step()
        while true {
            for node in scan.keysFoundByLastStep() where printed < limit {
                print(table.line(row(node, now: now)))
                printed += 1
            }
            fflush(nil)  // stdout, when it is a pipe
            if progress.isComplete { break }
            progress = try scan.step()
        }
        let level = scan.level(limit: limit)
        let prefixes = level.children.filter { $0.kind == .prefix }
        for node in prefixes { print(table.line(row(node, now: now))) }
        if printed == 0 && prefixes.isEmpty { print("(none)") }
        let more = level.childCount - printed - prefixes.count
        print(
            "\n\(KeyspaceText.count(level.keys)) \(level.keys.value == 1 ? "key" : "keys"), "
                + "\(KeyspaceText.bytes(level.bytes)) under \(level.prefixText.isEmpty ? "the top level" : level.prefixText)"
                + (more > 0 ? "; \(Formatting.count(more)) more not shown (--limit)" : "")
                + (level.bytes.isSampled ? "; ~ marks estimates" : ""))
    }

    private func row(_ node: KeyspaceNode, now: Int64) -> [String] {
        [
            node.nameText, node.type?.rawValue ?? "prefix", KeyspaceText.count(node.keys), KeyspaceText.bytes(node.bytes),
            node.kind == .key ? KeyspaceText.expiry(node.expiresAt, now: now) : Table.none,
        ]
    }
}

/// `cachedeck key URL KEY [--json]`
struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Show one key of any Redis database: type, encoding, TTL, memory, length and its first items.",
        discussion: """
            Read-only and bounded: the first 4 KB of a string (as text, or a hex dump when it is not text) and the \
            first 50 items of a list, hash, set, sorted set or stream. Bytes that are not UTF-8 show as \\xNN and may \
            be typed so in KEY.
            """)

    @OptionGroup var redis: RedisArguments

    @Argument(help: "The key.")
    var key: String

    @Flag(help: "Print JSON (a stable, documented shape) instead of text.")
    var json = false

    func run() throws {
        let keyspace = try redis.open()
        guard let detail = try keyspace.key(RedisKeyspace.bytes(ofTyped: key)) else {
            throw Failure("no key \(key) in \(keyspace.endpoint)")
        }
        if json { return try JSONOutput.print(detail) }
        let now = ConsoleRuntime.now()
        print(
            Fields(items: [
                ("Key", detail.keyText),
                ("Type", "\(detail.type) (\(detail.encoding))"),
                ("Length", KeyspaceText.length(detail) ?? Table.none),
                (
                    "Memory",
                    KeyspaceText.bytes(detail.bytes) + (detail.bytes.isSampled ? " (Redis' sampled estimate)" : "")
                ),
                ("Expires", KeyspaceText.expiry(detail.expiresAt, now: now)),
            ]).rendered)
        print()
        for line in KeyspaceText.previewLines(detail.preview) { print(TerminalText.sanitize(line)) }
    }
}
