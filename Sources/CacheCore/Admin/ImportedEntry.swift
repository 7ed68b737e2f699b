import Foundation

/// One entry to import (see ``Admin/importEntries(_:into:origin:)``): what `cachedeck
/// export` writes for it.
public struct ImportedEntry: Sendable, Hashable {
    /// The canonical key.
    public var key: String
    /// The value's bytes.
    public var value: Data
    /// The entry's tags.
    public var tags: [String]
    /// When its value was written (milliseconds since the epoch).
    public var createdAt: Int64
    /// When it expires (`nil`: never).
    public var expiresAt: Int64?
    /// Until when a stale read may return it (`nil`: no stale window).
    public var staleUntil: Int64?
    /// The namespace version it was written under (`""` for none).
    public var version: String

    /// An entry with these parts.
    public init(
        key: String, value: Data, tags: [String] = [], createdAt: Int64, expiresAt: Int64? = nil,
        staleUntil: Int64? = nil, version: String = ""
    ) {
        self.key = key
        self.value = value
        self.tags = tags
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.staleUntil = staleUntil
        self.version = version
    }

    /// Key plus value bytes, as the namespace counters count them.
    public var size: Int { key.utf8.count + value.count }
}

/// What an import recorded in its audit row, so its undo deletes exactly the rows it wrote.
public struct ImportRecord: Sendable, Hashable, Codable {
    /// The namespace imported into.
    public let namespace: String
    /// Entries written (new and replacing).
    public let entries: Int
    /// Existing entries it replaced (moved to the trash).
    public let replaced: Int
    /// The row ids it wrote: every imported row's id lies in this range.
    public let rowIDs: ClosedRange<Int64>?

    /// A record with these parts (an import writes the real one; a preview has no row ids).
    package init(namespace: String, entries: Int, replaced: Int, rowIDs: ClosedRange<Int64>?) {
        self.namespace = namespace
        self.entries = entries
        self.replaced = replaced
        self.rowIDs = rowIDs
    }
}

/// What an import would do: entries new to the namespace, entries that replace existing
/// ones (and their bytes, which go to the trash), and the bytes written.
public struct ImportImpact: Sendable, Hashable {
    /// Keys the namespace does not hold.
    public let new: Int
    /// Keys it holds: their entries go to the trash.
    public let replacing: Int
    /// The bytes of the entries replaced.
    public let replacedBytes: Int
    /// The bytes written (keys plus values).
    public let bytes: Int
}
