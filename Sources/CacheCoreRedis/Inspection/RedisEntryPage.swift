import CacheCore
import Foundation

/// What ``RedisStoreInspector/entries(_:)`` lists: one page of a namespace's entries in the
/// server's `SCAN` order (Redis keeps no order to sort by without reading every key).
public struct RedisEntryQuery: Sendable, Hashable {
    /// The namespace.
    public var namespace: String
    /// Conditions every listed entry meets: a leading `prefix:` term narrows the `SCAN` by
    /// `MATCH`; the others are tested on each entry read. `hits` terms are refused (Redis
    /// records no reads).
    public var filter: EntryFilter
    /// The most rows to return.
    public var limit: Int
    /// Where to continue: the previous page's ``RedisEntryPage/next``; `nil` for the first page.
    public var after: RedisEntryCursor?
    /// The most keys one call reads before it returns what it found (a filtered walk goes
    /// on from ``RedisEntryPage/next``).
    public var scanLimit: Int
    /// The `COUNT` hint of each `SCAN` call.
    public var batchSize: Int

    /// A query; by default 100 rows, at most 10,000 keys read a call, 200 keys a `SCAN`.
    public init(
        namespace: String, filter: EntryFilter = EntryFilter(), limit: Int = 100, after: RedisEntryCursor? = nil,
        scanLimit: Int = 10_000, batchSize: Int = 200
    ) {
        self.namespace = namespace
        self.filter = filter
        self.limit = limit
        self.after = after
        self.scanLimit = scanLimit
        self.batchSize = batchSize
    }
}

/// Where a page of a namespace's entries ended: the `SCAN` cursor and the keys of the last
/// batch not listed yet, so the next page neither skips nor repeats one.
public struct RedisEntryCursor: Sendable, Hashable, Codable {
    let namespace: String
    let generation: Int64
    let filter: String
    let scanCursor: String
    /// Entry keys (after the generation's key prefix) returned by `SCAN` but not listed yet.
    let pending: [Data]

    /// The cursor as text, to hand out and take back with `init(token:)`.
    public var token: String {
        ((try? JSONEncoder().encode(self)) ?? Data()).base64EncodedString()
    }

    /// The cursor a `token` stands for.
    ///
    /// - Throws: `InspectorError/invalidCursor` when it is not one.
    public init(token: String) throws {
        guard let data = Data(base64Encoded: token),
            let cursor = try? JSONDecoder().decode(RedisEntryCursor.self, from: data)
        else { throw InspectorError.invalidCursor }
        self = cursor
    }

    init(namespace: String, generation: Int64, filter: String, scanCursor: String, pending: [Data]) {
        self.namespace = namespace
        self.generation = generation
        self.filter = filter
        self.scanCursor = scanCursor
        self.pending = pending
    }
}

/// One page of a namespace's entries on Redis.
public struct RedisEntryPage: Sendable, Hashable {
    /// The namespace listed.
    public var namespace: String
    /// The generation listed (a clear moves the namespace to the next).
    public var generation: Int64
    /// The time expiry was judged at (ms since 1970).
    public var now: Int64
    /// The rows, in `SCAN` order. An entry present for the whole walk is listed once (Redis'
    /// `SCAN` may return a key twice while the server resizes its table; such a repeat is
    /// listed twice).
    public var rows: [EntryRow]
    /// Where the next page starts; `nil` after the last.
    public var next: RedisEntryCursor?
    /// Keys read to build the page.
    public var examinedKeys: Int
    /// Whether ``RedisEntryQuery/scanLimit`` ended the page before it filled.
    public var reachedScanLimit: Bool
}
