/// Read-only views of a cache file for consoles and command-line tools: store and namespace
/// summaries, pages of entries, entry details, expiry timelines and top lists.
///
/// An inspector has no side effects: it reads through the store's read-only connections,
/// records no access and writes nothing, so it works on a store opened with
/// ``StoreOptions/inspection(writable:)`` while an app writes the file. Every call stays
/// bounded on large files: it reads the namespaces' counters, counts index ranges, pages with
/// keyset cursors, and caps the scans that orders without an index need (reporting what the
/// cap left out). "Now" is the store's clock.
///
/// Calls block while they read; run them off a UI thread. Results are immutable, `Codable`
/// snapshots with times in milliseconds since the Unix epoch.
///
/// ```swift
/// let store = try CacheStore(path: path, options: .inspection())
/// let inspector = store.inspector
/// let page = try inspector.entries(EntryQuery(namespace: "colors", filter: try EntryFilter(parsing: "size>1KB")))
/// ```
public struct Inspector: Sendable {
    let store: CacheStore

    /// An inspector over `store`.
    public init(_ store: CacheStore) {
        self.store = store
    }
}

extension CacheStore {
    /// A read-only ``Inspector`` over this store.
    public var inspector: Inspector { Inspector(self) }
}
