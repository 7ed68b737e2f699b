import Foundation

/// One entry as a list shows it: its metadata and the first bytes of its value.
/// Times are milliseconds since the Unix epoch.
public struct EntryRow: Sendable, Hashable, Codable {
    /// The row id: stable while the entry exists (an overwrite keeps it); finds the entry
    /// with ``Inspector/entry(id:options:)`` even when its key is not valid UTF-8.
    public var id: Int64
    /// The namespace's name.
    public var namespace: String
    /// The canonical key (bytes that are not valid UTF-8 show as U+FFFD).
    public var key: String
    /// Key plus value bytes, as the namespace's byte counter counts them.
    public var size: Int
    /// The value's length in bytes.
    public var valueBytes: Int
    /// When the current value was written.
    public var createdAt: Int64
    /// When the entry expires (`now >= expiresAt` is expired); `nil` never.
    public var expiresAt: Int64?
    /// Until when a stale read may still return it; `nil` never.
    public var staleUntil: Int64?
    /// The last recorded read (reads are recorded when the reading process flushes); `nil`
    /// when the entry was never read since it was written, or the store records no reads.
    public var lastAccessAt: Int64?
    /// Recorded reads (a lower bound until the reading process flushes).
    public var hits: Int
    /// The namespace version the entry was written under.
    public var version: String
    /// The entry's tags, sorted.
    public var tags: [String]
    /// The first bytes of the value (as many as the request asked for).
    public var preview: Data

    /// Whether the entry has expired at `now`.
    public func isExpired(at now: Int64) -> Bool { expiresAt.map { now >= $0 } ?? false }

    /// The memberwise initializer, for the package's other targets.
    package init(
        id: Int64, namespace: String, key: String, size: Int, valueBytes: Int, createdAt: Int64, expiresAt: Int64?,
        staleUntil: Int64?, lastAccessAt: Int64?, hits: Int, version: String, tags: [String], preview: Data
    ) {
        self.id = id
        self.namespace = namespace
        self.key = key
        self.size = size
        self.valueBytes = valueBytes
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.staleUntil = staleUntil
        self.lastAccessAt = lastAccessAt
        self.hits = hits
        self.version = version
        self.tags = tags
        self.preview = preview
    }

    /// Encodes every field, `lastAccessAt` as `null` for an entry never read (absent
    /// optionals are left out, as usual, for the expiry times).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(namespace, forKey: .namespace)
        try container.encode(key, forKey: .key)
        try container.encode(size, forKey: .size)
        try container.encode(valueBytes, forKey: .valueBytes)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try container.encodeIfPresent(staleUntil, forKey: .staleUntil)
        try container.encode(lastAccessAt, forKey: .lastAccessAt)
        try container.encode(hits, forKey: .hits)
        try container.encode(version, forKey: .version)
        try container.encode(tags, forKey: .tags)
        try container.encode(preview, forKey: .preview)
    }
}

/// Where a page ended, to continue from with ``EntryQuery/after``. It holds the last row's
/// sort values and id (keyset pagination), so pages stay correct while other processes write.
public struct EntryCursor: Sendable, Hashable, Codable {
    let namespace: String
    let sort: EntrySort
    /// The part of the order the position is in (the expiry order lists expiring entries and
    /// never-expiring ones separately).
    let segment: Int
    /// The row's values of the order's columns.
    let values: [CursorValue]
    let id: Int64
}

/// A sort column's value in a cursor.
enum CursorValue: Sendable, Hashable, Codable {
    case integer(Int64)
    /// Text as its raw bytes, so keys that are not valid UTF-8 resume exactly.
    case text(Data)
    case null

    var sqlValue: SQLValue? {
        switch self {
        case .integer(let value): .integer(value)
        case .text(let bytes): .textBytes(bytes)
        case .null: nil
        }
    }
}

/// One page of a namespace's entries.
public struct EntryPage: Sendable, Hashable, Codable {
    /// The namespace listed.
    public var namespace: String
    /// The order of the rows.
    public var sort: EntrySort
    /// The filter in its text form.
    public var filter: String
    /// The time expiry and ages were judged at (milliseconds since the epoch).
    public var now: Int64
    /// The rows, in order.
    public var rows: [EntryRow]
    /// Where the next page starts; `nil` when there are no more rows.
    public var next: EntryCursor?
    /// Rows looked at to build the page (a sort without an index counts the rows it ranked).
    public var examinedRows: Int
    /// Whether the scan limit ended the page before it filled: ``next`` continues the scan.
    public var reachedScanLimit: Bool
}
