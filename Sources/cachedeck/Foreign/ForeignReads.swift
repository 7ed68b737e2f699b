import CacheConsole
import CacheCore
import ForeignCaches
import Foundation
import TerminalUI

/// The read commands on a cache another library wrote (see docs/foreign-caches.md): the
/// same tables and `--json` as on a CacheDeck file, with what the format does not record
/// shown as unknown (`–`, JSON `null`).
struct ForeignReads {
    let cache: ForeignCache
    let json: Bool

    /// The foreign cache at `path`, when it is one (a CacheDeck file, a URL or an unreadable
    /// file is left to the CacheDeck commands and their messages).
    static func recognise(_ path: String, json: Bool) -> ForeignReads? {
        guard let cache = try? ForeignCache.recognise(path: path) else { return nil }
        return ForeignReads(cache: cache, json: json)
    }

    private var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// `info`.
    func info() throws {
        let overview = try cache.overview(now: now)
        if json { return try JSONOutput.print(overview) }
        let facts = overview.facts
        let recorded = [
            ("expiry", facts.expiry), ("write times", facts.created), ("access times", facts.lastAccess),
            ("hits", facts.hits), ("tags", facts.tags),
        ]
        print(
            Fields(items: [
                ("File", overview.path),
                ("Format", "\(overview.format.rawValue) (read-only)"),
                (
                    "On disk",
                    "\(Formatting.bytes(Int(clamping: overview.fileBytes + overview.walBytes))) "
                        + "(file \(Formatting.bytes(Int(clamping: overview.fileBytes))), WAL \(Formatting.bytes(Int(clamping: overview.walBytes))))"
                ),
                (
                    "Contents",
                    "\(Formatting.entries(overview.entries)), "
                        + "\(overview.bytes.map { Formatting.bytes(Int(clamping: $0)) + " of keys and values" } ?? "bytes not counted"), "
                        + "in \(Formatting.namespaces(overview.namespaces.count))"
                ),
                ("Expired", overview.expired.map { "\(Formatting.count($0)) still present" } ?? "– (no expiry)"),
                ("Records", recorded.map { "\($0.0) \($0.1 ? "yes" : "no")" }.joined(separator: ", ")),
            ]
            ).rendered)
    }

    /// `namespaces`.
    func namespaces() throws {
        let overview = try cache.overview(now: now)
        if json { return try JSONOutput.print(overview.namespaces) }
        print(
            Table(
                headers: ["namespace", "entries", "expired", "bytes"],
                rows: overview.namespaces.map { namespace in
                    [
                        TerminalText.sanitize(namespace.name), Formatting.count(namespace.entries),
                        namespace.expired.map(Formatting.count) ?? Table.none,
                        namespace.bytes.map { Formatting.bytes(Int(clamping: $0)) } ?? Table.none,
                    ]
                }, textColumns: [0]
            ).rendered)
    }

    /// `ls`; the next page's command ends the table.
    func list(_ query: ForeignQuery, nextCommand: (String) -> String) throws {
        let page = try cache.entries(query, now: now)
        if json { return try JSONOutput.print(ForeignListing(page: page, namespace: query.namespace)) }
        print(
            Table(
                headers: ["row", "key", "size", "age", "expires", "hits", "accessed", "tag"],
                rows: page.rows.map { row in
                    [
                        "#\(row.id.row)", TerminalText.truncate(TerminalText.sanitize(row.label ?? row.key), toWidth: 48),
                        Formatting.bytes(Int(clamping: row.size)),
                        row.createdAt.map { Figures.span(max(0, page.now.subtractingClamped($0))) } ?? Table.none,
                        cache.facts.expiry ? Figures.expiry(row.expiresAt, now: page.now) : Table.none,
                        row.hits.map(Formatting.count) ?? Table.none,
                        row.lastAccessAt.map { Figures.relative($0, now: page.now) } ?? Table.none,
                        TerminalText.truncate(TerminalText.sanitize(row.tag ?? ""), toWidth: 24),
                    ]
                }, textColumns: [1, 7]
            ).rendered)
        if let next = page.next { print("Next page: " + nextCommand(next.token)) }
    }

    /// `show`: `key` is the key as `ls` prints it, or `#ROW`.
    func show(namespace: String, key: String, hex: Bool) throws {
        guard let id = try cache.find(namespace: namespace, key: key), let detail = try cache.entry(id, hex: hex) else {
            throw Failure("no entry '\(TerminalText.sanitize(key))' in namespace '\(TerminalText.sanitize(namespace))'")
        }
        if json { return try JSONOutput.print(detail) }
        let entry = detail.entry
        let now = now
        func time(_ value: Int64?, unknown: String = Table.none) -> String {
            value.map { "\(TimeText.timestamp($0)) (\(Figures.relative($0, now: now)))" } ?? unknown
        }
        var fields: [(String, String)] = [
            ("Namespace", TerminalText.sanitize(entry.id.namespace)), ("Key", TerminalText.sanitize(entry.key)),
        ]
        if let label = entry.label { fields.append(("Reads as", TerminalText.sanitize(label))) }
        print(
            Fields(items: fields + [
                ("Row", "#\(entry.id.row)"),
                (
                    "Size",
                    "\(Formatting.bytes(Int(clamping: entry.size))) (value "
                        + (detail.valueBytes.map { "\(Formatting.count(Int(clamping: $0))) B" } ?? "missing") + ")"
                ),
                ("Value", detail.kind.rawValue + (detail.sideFile.map { ", in \(TerminalText.sanitize($0))" } ?? "")),
                ("Created", time(entry.createdAt)),
                ("Expires", cache.facts.expiry ? entry.expiresAt.map { Figures.expiry($0, now: now) } ?? "never" : Table.none),
                ("Last access", time(entry.lastAccessAt)),
                ("Hits", entry.hits.map(Formatting.count) ?? Table.none),
                ("Version", detail.version.map(TerminalText.sanitize) ?? Table.none),
                ("Tag", entry.tag.map(TerminalText.sanitize) ?? Table.none),
            ]
            ).rendered)
        print()
        ShowCommand.printValue(detail.value, totalBytes: detail.valueBytes.map { Int(clamping: $0) })
    }

    /// `timeline`: expiry, or ages where the format has no expiry.
    func timeline(namespace: String?) throws {
        let timeline = try cache.timeline(namespace: namespace, now: now)
        if json { return try JSONOutput.print(timeline) }
        let scope = namespace.map { "namespace \(TerminalText.sanitize($0))" } ?? "all namespaces"
        print(timeline.kind == .expiry ? "Expiry of \(scope)" : "Ages of \(scope) (this format records no expiry)")
        print()
        print(
            Table(
                headers: [timeline.kind == .expiry ? "expires" : "age", "entries", "bytes"],
                rows: timeline.buckets.map {
                    [
                        ExpiryBucketKind(rawValue: $0.label).map(TimelineCommand.label) ?? $0.label,
                        Formatting.count($0.entries), Formatting.bytes(Int(clamping: $0.bytes)),
                    ]
                }
            ).rendered)
        guard timeline.kind == .expiry else { return }
        print()
        print("Next 48 hours, entries expiring per hour")
        let largest = timeline.hourly.max() ?? 0
        print(
            Table(
                headers: ["hour", "", "entries"],
                rows: timeline.hourly.enumerated().map { hour, entries in
                    ["+\(hour)h", BarChart.bar(entries, of: largest, width: 40), Formatting.count(entries)]
                }
            ).rendered)
    }
}

/// `ls --json` on a foreign cache.
struct ForeignListing: Encodable {
    let namespace: String
    let now: Int64
    let rows: [ForeignEntry]
    let next: String?

    init(page: ForeignPage, namespace: String) {
        self.namespace = namespace
        now = page.now
        rows = page.rows
        next = page.next?.token
    }
}
