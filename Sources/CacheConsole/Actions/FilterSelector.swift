import TerminalUI
import CacheCore
import CacheCoreRedis

/// How a filter (``EntryFilter`` text) becomes the selector an action removes: the whole
/// namespace, one prefix or one tag when the filter is just that (no limit), else the keys it
/// matches when the action is prepared, so the action removes exactly what its preview counted.
/// The console's marks and `:` commands and the CLI's `--filter` all go through it.
package struct FilterSelector: Sendable {
    /// Filters that match more entries than this cannot be acted on key by key (the action
    /// and its audit record name every key).
    package static let maximumKeys = 100_000

    /// One page of the keys a filter matches, and where the next page starts (`nil`: none).
    package typealias KeyPage = (keys: [String], next: String?)

    /// The keys of a namespace that a filter matches, a page at a time from a start token.
    let matchingKeys: @Sendable (_ namespace: String, _ filter: EntryFilter, _ after: String?) throws -> KeyPage

    /// A selector reading matching keys with `matchingKeys`.
    package init(
        matchingKeys: @escaping @Sendable (_ namespace: String, _ filter: EntryFilter, _ after: String?) throws
            -> KeyPage
    ) {
        self.matchingKeys = matchingKeys
    }

    /// Matching keys from a cache file's inspector, in one read.
    package static func file(_ store: CacheStore) -> FilterSelector {
        FilterSelector { namespace, filter, _ in
            (try store.inspector.keys(namespace: namespace, filter: filter, limit: maximumKeys + 1), nil)
        }
    }

    /// Matching keys from a RedisStore's inspector, page by page.
    package static func redis(_ inspector: RedisStoreInspector) -> FilterSelector {
        FilterSelector { namespace, filter, after in
            let page = try inspector.entries(
                RedisEntryQuery(
                    namespace: namespace, filter: filter, limit: 10_000,
                    after: try after.map { try RedisEntryCursor(token: $0) }))
            return (page.rows.map(\.key), page.next?.token)
        }
    }

    /// Matching keys from the inspector of the RedisStore at `url`, opened when a filter has
    /// to list keys (a prefix or tag filter never does).
    package static func redis(url: String, prefix: String) -> FilterSelector {
        FilterSelector { namespace, filter, after in
            try redis(try RedisStoreInspector(url: url, prefix: prefix)).matchingKeys(namespace, filter, after)
        }
    }

    /// The selector that acts on what `filter` matches without listing its keys: the whole
    /// namespace, one prefix or one tag; `nil` when the action must list the keys.
    package static func direct(namespace: String, filter: EntryFilter) -> InvalidationSelector? {
        if filter.terms.isEmpty { return .namespace(namespace) }
        guard filter.terms.count == 1 else { return nil }
        switch filter.terms[0] {
        case .keyPrefix(let prefix): return .prefix(namespace: namespace, prefix: prefix)
        case .tag(let tag): return .tag(tag, namespace: namespace)
        default: return nil
        }
    }

    /// The selector for what filter `text` matches in `namespace` now.
    ///
    /// - Throws: ``ConsoleError`` when nothing matches or more than ``maximumKeys`` entries
    ///   would have to be listed; ``EntryFilterError`` for text that is not a filter.
    package func selector(namespace: String, filter text: String) throws -> InvalidationSelector {
        let filter = try EntryFilter(parsing: text)
        if let direct = Self.direct(namespace: namespace, filter: filter) { return direct }
        var keys: [String] = []
        var after: String?
        repeat {
            let page = try matchingKeys(namespace, filter, after)
            keys += page.keys
            after = page.next
            guard keys.count <= Self.maximumKeys else {
                throw ConsoleError(
                    "the filter matches more than \(Formatting.entries(Self.maximumKeys)); "
                        + "narrow it, or use prefix: or tag:")
            }
        } while after != nil
        guard !keys.isEmpty else { throw ConsoleError("no entry matches '\(text)'") }
        return keys.count == 1 ? .key(namespace: namespace, key: keys[0]) : .keys(namespace: namespace, keys: keys)
    }
}
