import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import CacheCoreRedis
import ForeignCaches
import Foundation

/// `cachedeck show FILE|URL NAMESPACE KEY [--hex | --raw]`
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one entry: its metadata, tags and value (pretty JSON, or a hex dump).",
        discussion: """
            KEY is the canonical key as ls prints it: strings verbatim, integers in decimal, other keys \
            as sorted-key JSON. Values that are JSON are pretty-printed with sorted keys; anything else, \
            or any value with --hex, is shown as a hex dump. At most 64 KiB is shown.
            """)

    @OptionGroup var store: StoreArguments
    @Argument(help: "The namespace.") var namespace: String
    @Argument(help: "The entry's canonical key.") var key: String
    @Flag(help: "Show the value as a hex dump even when it is JSON.") var hex = false
    @Flag(help: "Write the value's bytes, exactly as stored, and nothing else.") var raw = false
    @OptionGroup var redis: RedisPrefixArguments
    @OptionGroup var output: OutputArguments

    func validate() throws {
        if raw && (hex || output.json) { throw ValidationError("--raw writes the bytes alone: no --hex or --json") }
    }

    func run() throws {
        if let foreign = ForeignReads.recognise(store.file, json: output.json) {
            if raw { throw Failure("--raw writes CacheDeck values; use --hex on this file") }
            return try foreign.show(namespace: namespace, key: key, hex: hex)
        }
        let options = EntryDetailOptions(format: hex ? .hexDump : .automatic)
        let missing = Failure("no entry with key '\(TerminalText.sanitize(key))' in namespace '\(namespace)'")
        let detail: EntryDetail
        let value: () throws -> Data
        if let inspector = try redis.inspector(for: store.file) {
            guard let found = try inspector.entry(namespace: namespace, key: key, options: options) else {
                guard try inspector.namespaces().contains(where: { $0.name == namespace }) else {
                    throw InspectorError.noSuchNamespace(namespace)
                }
                throw missing
            }
            (detail, value) = (found, { try EntryExporter.value(of: found.entry, from: inspector) })
        } else {
            let inspector = try store.openForReading().inspector
            guard let found = try inspector.entry(namespace: namespace, key: key, options: options) else {
                _ = try inspector.namespace(namespace)  // throws when the namespace itself is missing
                throw missing
            }
            (detail, value) = (found, { try EntryExporter.value(of: found.entry, from: inspector) })
        }
        if raw { return FileHandle.standardOutput.write(try value()) }
        if output.json { return try JSONOutput.print(detail) }
        let entry = detail.entry
        let now = detail.now
        let readsUnrecorded = RedisKeyspace.isURL(store.file)
        print(
            Fields(items: [
                ("Namespace", entry.namespace),
                ("Key", entry.key),
                ("Size", "\(Formatting.bytes(entry.size)) (value \(Formatting.count(entry.valueBytes)) B)"),
                ("Created", "\(TimeText.timestamp(entry.createdAt)) (\(Figures.relative(entry.createdAt, now: now)))"),
                (
                    "Expires",
                    entry.expiresAt.map { "\(TimeText.timestamp($0)) (\(Figures.expiry($0, now: now)))" } ?? "never"
                ),
                (
                    "Stale until",
                    entry.staleUntil.map { "\(TimeText.timestamp($0)) (\(Figures.relative($0, now: now)))" }
                        ?? Table.none
                ),
                (
                    "Last access",
                    readsUnrecorded
                        ? Table.none + " (Redis records no reads)"
                        : entry.lastAccessAt.map { "\(TimeText.timestamp($0)) (\(Figures.relative($0, now: now)))" }
                            ?? "never"
                ),
                ("Hits", readsUnrecorded ? Table.none : Formatting.count(entry.hits)),
                ("Version", entry.version.isEmpty ? Table.none : entry.version),
                ("Tags", entry.tags.isEmpty ? Table.none : entry.tags.joined(separator: ", ")),
                ("Sort value", detail.sortValue.map { String($0) } ?? Table.none),
            ]
            ).rendered)
        print()
        Self.printValue(detail.value, totalBytes: entry.valueBytes)
    }
}

extension ShowCommand {
    /// A rendered value: text lines with escapes made visible, or `hexdump -C` lines, and
    /// where it was cut (`totalBytes`: the value's length, when known).
    static func printValue(_ value: ValueRendering, totalBytes: Int?) {
        switch value {
        case .json(let text, let isTruncated):
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                print(TerminalText.sanitize(String(line)))
            }
            if isTruncated { print("… (cut at 64 KiB)") }
        case .hexDump(let lines, let isTruncated):
            for line in lines { print(String(format: "%08x  %@  |%@|", line.offset, line.hex, line.ascii)) }
            if isTruncated {
                print(
                    "… (the first \(Formatting.count(lines.count * 16))"
                        + (totalBytes.map { " of \(Formatting.count($0))" } ?? "") + " bytes)")
            }
        }
    }
}
