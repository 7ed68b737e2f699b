import TerminalUI
import CacheCore
import CacheCoreRedis

/// Keyspace figures as the console and the CLI show them: amounts with their mark (`≥` while
/// the scan runs, `~` where Redis samples), types and expiries.
package enum KeyspaceText {
    /// `1,234` or `≥1,234`.
    package static func count(_ amount: KeyspaceAmount) -> String {
        amount.mark + Formatting.count(amount.value)
    }

    /// `1.2 kB`, `≥1.2 kB` or `~1.2 kB`.
    package static func bytes(_ amount: KeyspaceAmount) -> String {
        amount.mark + Formatting.bytes(amount.value)
    }

    /// A key's length with its unit, singular for one ("1 field", "12 fields"); `nil` when
    /// Redis gives none (module types).
    package static func length(_ detail: RedisKeyDetail) -> String? {
        guard let length = detail.length else { return nil }
        let unit = detail.lengthUnit ?? ""
        let singular = unit == "entries" ? "entry" : String(unit.dropLast())
        return "\(Formatting.count(length)) \(length == 1 ? singular : unit)"
    }

    /// How long a command ran: `850 µs`, `12.3 ms`, `2.5 s`.
    package static func duration(microseconds: Int64) -> String {
        if microseconds < 1000 { return "\(microseconds) µs" }
        if microseconds < 1_000_000 { return String(format: "%.1f ms", Double(microseconds) / 1000) }
        return String(format: "%.1f s", Double(microseconds) / 1_000_000)
    }

    /// A key's expiry from `expiresAt` (ms since the epoch): `in 3h`, `expired`, `never`.
    package static func expiry(_ expiresAt: Int64?, now: Int64) -> String {
        TimeText.expiry(expiresAt, now: now)
    }

    /// The server in one line: `Redis 7.0.15 master · 1.2 MB used of 100.0 MB (allkeys-lru) · 20,000 keys`.
    package static func server(_ info: RedisServerInfo) -> String {
        let limit =
            info.maxMemory > 0
            ? " of \(Formatting.bytes(info.maxMemory)) (\(info.maxMemoryPolicy))"
            : " (no maxmemory, \(info.maxMemoryPolicy))"
        return "Redis \(info.version) \(info.role) · \(Formatting.bytes(info.usedMemory)) used\(limit) · "
            + "\(Formatting.count(info.keyCount)) \(info.keyCount == 1 ? "key" : "keys")"
    }

    /// A primary's slots with their ranges: `5,461 (0-5460)`, `3 (0-1, 7, +1 more)`.
    package static func slots(_ node: RedisClusterNode) -> String {
        let ranges = node.slotRanges
        let shown = ranges.prefix(2).map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
        let more = ranges.count > 2 ? ", +\(ranges.count - 2) more" : ""
        return Formatting.count(node.slots) + (ranges.isEmpty ? "" : " (\(shown.joined(separator: ", "))\(more))")
    }

    /// Where a namespace's entries live beside its record.
    package static func entriesPlacement(_ placement: RedisTopology.Placement, isCluster: Bool) -> String {
        !isCluster || placement.entriesShareSlot ? "on the same node" : "spread over every primary"
    }

    /// How far a scan is: `scanning… 12,000 of ~20,000 keys` (a prefix scan: `scanning… 1,200
    /// keys found`) or `scanned 20,000 keys`.
    package static func progress(_ scan: KeyspaceScanProgress, ellipsis: String = "…") -> String {
        let found = "\(Formatting.count(scan.keysFound)) \(scan.keysFound == 1 ? "key" : "keys")"
        if scan.isComplete { return "scanned " + found }
        if scan.isMatchScan { return "scanning\(ellipsis) \(found) found" }
        return
            "scanning\(ellipsis) \(Formatting.count(scan.keysFound)) of ~\(Formatting.count(scan.keysInDatabase)) keys"
    }
}

extension KeyspaceText {
    /// A value's preview as lines: text as it is, a hex dump, or one item a line
    /// (`field = value`, `member (score)`, `id  f=v f=v`), then `…` when there is more.
    package static func previewLines(_ preview: RedisValuePreview) -> [String] {
        var lines: [String]
        switch preview.format {
        case "text":
            lines = (preview.text ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        case "hex":
            lines = (preview.hex ?? []).map { String(format: "%08x  ", $0.offset) + $0.hex + "  |" + $0.ascii + "|" }
        case "items":
            lines = (preview.items ?? []).enumerated().map { index, item in
                item.name.map { "\($0) = \(item.value)" } ?? "\(index + 1)) \(item.value)"
            }
        default: lines = ["(no preview for this type)"]
        }
        return lines + (preview.isTruncated ? ["… (more not shown)"] : [])
    }
}
