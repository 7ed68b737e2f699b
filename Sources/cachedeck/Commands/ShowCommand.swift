import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import ForeignCaches
import Foundation

/// `cachedeck show FILE NAMESPACE KEY [--hex | --raw]`
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
    @OptionGroup var output: OutputArguments

    func validate() throws {
        if raw && (hex || output.json) { throw ValidationError("--raw writes the bytes alone: no --hex or --json") }
    }

    func run() throws {
        if let foreign = ForeignReads.recognise(store.file, json: output.json) {
            if raw { throw Failure("--raw writes CacheDeck values; use --hex on this file") }
            return try foreign.show(namespace: namespace, key: key, hex: hex)
        }
        let inspector = try store.openForReading().inspector
        let options = EntryDetailOptions(format: hex ? .hexDump : .automatic)
        guard let detail = try inspector.entry(namespace: namespace, key: key, options: options) else {
            _ = try inspector.namespace(namespace)  // throws when the namespace itself is missing
            throw Failure("no entry with key '\(TerminalText.sanitize(key))' in namespace '\(namespace)'")
        }
        if raw {
            return FileHandle.standardOutput.write(try EntryExporter.value(of: detail.entry, from: inspector))
        }
        if output.json { return try JSONOutput.print(detail) }
        let entry = detail.entry
        let now = detail.now
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
                    entry.lastAccessAt.map { "\(TimeText.timestamp($0)) (\(Figures.relative($0, now: now)))" } ?? "never"
                ),
                ("Hits", Formatting.count(entry.hits)),
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
