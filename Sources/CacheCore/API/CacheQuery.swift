import Foundation

/// What ``Cache/entries(_:)`` and ``Cache/count(matching:)`` select from a namespace: a key
/// prefix, tags, the inspector's filter terms (``EntryFilter``), an order, and a page.
///
/// ```swift
/// let page = try mail.entries(CacheQuery(prefix: "acct-7/", tags: ["unread"], orderedBy: EntrySort(.created, descending: true), limit: 50))
/// let more = try mail.entries(CacheQuery(prefix: "acct-7/", tags: ["unread"], orderedBy: EntrySort(.created, descending: true), after: page.next))
/// ```
public struct CacheQuery: Sendable, Hashable {
    /// Keys whose canonical text starts with this (normalized as keys are).
    public var prefix: String?
    /// Tags every entry must carry.
    public var tags: [String]
    /// More conditions, as the console's filter: `size>1KB age<1h regex:^a` (see
    /// ``EntryFilter/init(parsing:)``).
    public var filter: EntryFilter
    /// The order: by key, creation, expiry or sort value (indexed, so a page costs what it
    /// returns; the other ``EntrySortField``s rank the whole namespace first).
    public var order: EntrySort
    /// The most entries a page holds (1…10,000).
    public var limit: Int
    /// Where to continue: the ``CachePage/next`` of the previous page.
    public var after: EntryCursor?
    /// Entries to skip before the page (after `after`): walked, so it costs what it skips;
    /// prefer `after`.
    public var offset: Int
    /// Whether expired entries not yet swept are selected too (never by default, as reads).
    public var includesExpired: Bool

    /// A query; the defaults select the first 50 live entries by key.
    public init(
        prefix: String? = nil, tags: [String] = [], filter: EntryFilter = EntryFilter(),
        orderedBy order: EntrySort = EntrySort(.key), limit: Int = 50, after: EntryCursor? = nil, offset: Int = 0,
        includesExpired: Bool = false
    ) {
        self.prefix = prefix
        self.tags = tags
        self.filter = filter
        self.order = order
        self.limit = limit
        self.after = after
        self.offset = offset
        self.includesExpired = includesExpired
    }

    /// The inspector's filter that selects the same entries.
    var entryFilter: EntryFilter {
        var terms = filter.terms
        if let prefix, !prefix.isEmpty { terms.append(.keyPrefix(CanonicalKey.normalized(prefix))) }
        terms += tags.map(EntryFilterTerm.tag)
        if !includesExpired { terms.append(.timeToLive(.greater, milliseconds: 0)) }
        return EntryFilter(terms)
    }
}

/// One entry a query returned, decoded.
public struct CachedEntry<Key: Sendable, Value: Sendable>: Sendable {
    public let key: Key
    public let value: Value
    /// When the value was written.
    public let createdAt: Date
    /// When it expires; `nil` for never.
    public let expiresAt: Date?
    public let tags: [String]
    /// The app's sort value it was set with, if any.
    public let sortValue: Int64?
}

/// One entry of a batch ``Cache/set(_:expiration:)-([CacheItem])``: its key, value, tags and
/// app-given sort value.
public struct CacheItem<Key: Sendable, Value: Sendable>: Sendable {
    public var key: Key
    public var value: Value
    public var tags: [String]
    /// The app's order for the entry (see ``Cache/set(_:for:expiration:tags:sortValue:)``).
    public var sortValue: Int64?

    public init(key: Key, value: Value, tags: [String] = [], sortValue: Int64? = nil) {
        self.key = key
        self.value = value
        self.tags = tags
        self.sortValue = sortValue
    }
}

/// A page of a query's entries.
public struct CachePage<Key: Sendable, Value: Sendable>: Sendable {
    /// The entries, in the query's order. An entry whose key or value no longer decodes is
    /// left out (and counted, as a read's would be).
    public let entries: [CachedEntry<Key, Value>]
    /// Where the next page starts (``CacheQuery/after``); `nil` after the last.
    public let next: EntryCursor?
}
