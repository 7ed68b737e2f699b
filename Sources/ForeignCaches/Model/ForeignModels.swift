import CacheCore
import Foundation

/// The cache formats of other libraries that CacheDeck reads.
package enum ForeignFormatKind: String, Sendable, Hashable, Codable, CaseIterable {
    case diskCache = "python-diskcache"
    case fanoutCache = "python-diskcache FanoutCache"
    case requestsCache = "requests-cache"
    case django = "Django database cache"
    case solidCache = "Rails Solid Cache"
    case laravel = "Laravel database cache"
    case urlCache = "Apple URLCache"
    case entityCache = "entity_cache"
}

/// What a format records about its entries; what it does not record is unknown, never zero.
package struct ForeignFacts: Sendable, Hashable, Codable {
    package var expiry: Bool
    package var created: Bool
    package var lastAccess: Bool
    package var hits: Bool
    package var tags: Bool
}

/// One namespace (or the format's nearest grouping: a table, a shard, a key prefix).
package struct ForeignNamespace: Sendable, Hashable, Codable {
    package var name: String
    package var entries: Int
    /// Keys, inline values and side files; `nil` when not counted (it reads every row).
    package var bytes: Int64?
    /// Expired entries still present; `nil` where the format has no expiry.
    package var expired: Int?
}

/// The cache at a glance.
package struct ForeignOverview: Sendable, Hashable, Codable {
    package var path: String
    package var format: ForeignFormatKind
    package var facts: ForeignFacts
    /// The database files (each shard's) and their write-ahead logs, in bytes.
    package var fileBytes: Int64
    package var walBytes: Int64
    package var entries: Int
    /// Every namespace's bytes; `nil` when they were not counted.
    package var bytes: Int64?
    package var expired: Int?
    package var namespaces: [ForeignNamespace]
    package var now: Int64
}

/// Where an entry lives: its namespace's index and its row id there.
package struct ForeignEntryID: Sendable, Hashable, Codable {
    package var namespace: String
    package var row: Int64

    package init(namespace: String, row: Int64) {
        self.namespace = namespace
        self.row = row
    }
}

/// One entry as a listing shows it. Times are milliseconds since 1970; `nil` is unknown
/// (or, for `expiresAt`, never when the format has expiry).
package struct ForeignEntry: Sendable, Hashable, Codable {
    package var id: ForeignEntryID
    /// The key as text a person can read (escaped bytes, `pickle:` + hex for pickled keys):
    /// what `--key` and marks name it by.
    package var key: String
    /// How a pickled key reads, as Python's `repr` (`('user', 42)`); `nil` for other keys and
    /// for a pickle ``PickleValue`` cannot read.
    package var label: String?
    package var size: Int64
    package var createdAt: Int64?
    package var expiresAt: Int64?
    package var lastAccessAt: Int64?
    package var hits: Int?
    package var tag: String?
}

/// A page of entries, and where the next one starts.
package struct ForeignPage: Sendable, Hashable {
    package var rows: [ForeignEntry]
    package var next: ForeignCursor?
    package var now: Int64
}

/// One entry in full.
package struct ForeignDetail: Sendable, Hashable, Codable {
    package var entry: ForeignEntry
    /// The value's length in bytes (`nil`: its side file is missing).
    package var valueBytes: Int64?
    /// What the value is (`pickle`, `json`, `PHP serialize`, …) and how it is shown.
    package var kind: ValueKind
    package var value: ValueRendering
    /// Where the value lives when not in the row (relative to the cache folder).
    package var sideFile: String?
    /// The version the format records, if any.
    package var version: String?
}

/// A page request.
package struct ForeignQuery: Sendable, Hashable {
    package var namespace: String
    package var sort: EntrySort
    package var filter: EntryFilter
    package var limit: Int
    package var after: ForeignCursor?

    package init(
        namespace: String, sort: EntrySort = EntrySort(.key), filter: EntryFilter = EntryFilter(), limit: Int = 50,
        after: ForeignCursor? = nil
    ) {
        self.namespace = namespace
        self.sort = sort
        self.filter = filter
        self.limit = limit
        self.after = after
    }
}

/// When entries expire, or, for formats without expiry, how old they are.
package struct ForeignTimeline: Sendable, Hashable, Codable {
    /// A range and what is in it.
    package struct Bucket: Sendable, Hashable, Codable {
        package var label: String
        package var entries: Int
        package var bytes: Int64
    }

    /// `expiry` buckets run from expired to never; `age` buckets from newest to oldest.
    package enum Kind: String, Sendable, Hashable, Codable { case expiry, age }

    package var namespace: String?
    package var kind: Kind
    package var buckets: [Bucket]
    /// Entries expiring in each of the next 48 hours (expiry only).
    package var hourly: [Int]
}

/// Errors with one line for the operator.
package struct ForeignCacheError: Error, CustomStringConvertible, Equatable {
    package var description: String

    package init(_ description: String) { self.description = description }
}
