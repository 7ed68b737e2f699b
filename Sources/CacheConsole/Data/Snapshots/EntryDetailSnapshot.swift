import TerminalUI
/// One entry in full, for the Detail screen.
package struct EntryDetailSnapshot: Sendable, Hashable {
    /// The entry's metadata.
    package var entry: EntryInfo
    /// Its namespace.
    package var namespace: String
    /// The value's length in bytes.
    package var valueBytes: Int
    /// Until when a stale read may return it; `nil` never.
    package var staleUntil: Int64?
    /// The namespace version it was written under.
    package var version: String
    /// The value, rendered.
    package var value: ValueText
    /// What the value is, where the console names it (a foreign cache's `Python pickle ·
    /// hex dump`); `nil`: JSON or a hex dump, as ``value`` says.
    package var valueKind: String?
    /// The app-given sort value, if the entry has one.
    package var sortValue: Int64?
    /// Whether apps write the entry's hits and last access in batches (a CacheDeck file:
    /// file and memory reads wait up to about a second in each app), so the figures lag.
    package var readsLag = false

    /// A detail with these values.
    package init(
        entry: EntryInfo, namespace: String, valueBytes: Int, staleUntil: Int64?, version: String, value: ValueText
    ) {
        self.entry = entry
        self.namespace = namespace
        self.valueBytes = valueBytes
        self.staleUntil = staleUntil
        self.version = version
        self.value = value
    }
}

/// A value as text lines to show.
package enum ValueText: Sendable, Hashable {
    /// Pretty-printed JSON; `isTruncated` when cut at the size limit.
    case json(String, isTruncated: Bool)
    /// Hex dump lines (`00000000  7b 22 …  |{"…|`); `isTruncated` when the value is longer.
    case hexDump([String], isTruncated: Bool)

    /// Whether this is a hex dump.
    package var isHexDump: Bool {
        if case .hexDump = self { true } else { false }
    }

    /// Whether the value is longer than what is shown.
    package var isTruncated: Bool {
        switch self {
        case .json(_, let isTruncated), .hexDump(_, let isTruncated): isTruncated
        }
    }
}
