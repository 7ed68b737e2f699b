import TerminalUI
import CacheCore

/// The console's snapshots made from CacheCore's inspection models, the same for a cache file
/// and a Redis store.
extension EntryInfo {
    /// `row` as the Entries screen lists it; `hits` and the last access only when `recordsReads`.
    init(_ row: EntryRow, id: EntryReference, recordsReads: Bool = true) {
        self.init(
            id: id, key: row.key, size: row.size, createdAt: row.createdAt, expiresAt: row.expiresAt,
            lastAccessAt: recordsReads ? row.lastAccessAt ?? row.createdAt : nil, hits: recordsReads ? row.hits : nil,
            tags: row.tags)
    }
}

extension ValueText {
    /// `rendering` as lines: pretty JSON as it is, hex dump lines as `hexdump -C` prints them.
    init(_ rendering: ValueRendering) {
        switch rendering {
        case .json(let text, let isTruncated): self = .json(text, isTruncated: isTruncated)
        case .hexDump(let lines, let isTruncated): self = .hexDump(Self.lines(lines), isTruncated: isTruncated)
        }
    }

    /// Hex dump lines as `hexdump -C` prints them.
    static func lines(_ lines: [HexDumpLine]) -> [String] {
        lines.map { line in
            let offset = String(line.offset, radix: 16)
            return String(repeating: "0", count: max(0, 8 - offset.count)) + offset + "  " + line.hex + "  |"
                + line.ascii + "|"
        }
    }
}

extension EntryDetailSnapshot {
    /// `detail` for the Detail screen.
    init(_ detail: EntryDetail, id: EntryReference, recordsReads: Bool = true) {
        self.init(
            entry: EntryInfo(detail.entry, id: id, recordsReads: recordsReads), namespace: detail.entry.namespace,
            valueBytes: detail.entry.valueBytes, staleUntil: detail.entry.staleUntil, version: detail.entry.version,
            value: ValueText(detail.value))
        sortValue = detail.sortValue
        readsLag = recordsReads
    }
}

extension TimelineSnapshot {
    /// `timeline`'s buckets and hours; `isExact` false marks every count as a lower bound.
    init(_ timeline: ExpiryTimeline, isExact: Bool = true) {
        self.init(
            namespace: timeline.namespace,
            buckets: timeline.buckets.map {
                var bucket = Bucket(kind: $0.kind, entries: $0.entries, bytes: $0.bytes)
                (bucket.from, bucket.until) = ($0.from, $0.until)
                return bucket
            },
            hourly: timeline.hourly.map(\.entries), isExact: isExact)
        hourStarts = timeline.hourly.map(\.from) + (timeline.hourly.last.map { [$0.until] } ?? [])
    }
}
