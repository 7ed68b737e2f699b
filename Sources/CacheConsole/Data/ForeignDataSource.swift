import CacheCore
import ForeignCaches
import Foundation
import Synchronization
import TerminalUI

/// The console's data from a cache another library wrote (``ForeignCache``): Overview,
/// Entries, Detail and Timeline (ages where the format has no expiry), and, when allowed,
/// actions through ``ForeignAdmin`` and the ``ActionController``. Entries are found again by
/// namespace and `#row` (row ids repeat across a format's tables).
package final class ForeignDataSource: ConsoleDataSource {
    private let cache: ForeignCache
    private let admin: ForeignAdmin
    private let actions: ConsoleActions
    private let lastStamp = Mutex<[Int64]?>(nil)
    /// Bytes per namespace, counted on a thread of their own (a scan of every row: 0.9 s on a
    /// million python-diskcache rows, where the counts take milliseconds through indexes), for
    /// the files as they were at `stamp`; `isNew` until ``hasChanged()`` reports them.
    private let bytes = Mutex<(stamp: [Int64], namespaces: [String: Int64]?, isNew: Bool)?>(nil)

    /// A data source over `cache`; actions are refused unless `allowsActions`.
    package init(cache: ForeignCache, allowsActions: Bool) {
        self.cache = cache
        let admin = ForeignAdmin(cache: cache) { Int64(Date().timeIntervalSince1970 * 1000) }
        self.admin = admin
        actions = ConsoleActions(
            controller: allowsActions ? ActionController(admin: admin, isReadOnly: false, location: cache.path) : nil,
            location: cache.path,
            filters: FilterSelector { namespace, filter, after in
                let page = try cache.entries(
                    ForeignQuery(
                        namespace: namespace, filter: filter, limit: 10_000, after: try after.map(ForeignCursor.init)),
                    now: Int64(Date().timeIntervalSince1970 * 1000))
                return (page.rows.map(\.key), page.next?.token)
            })
    }

    package var location: String { cache.path }

    package var isReadOnly: Bool { actions.controller == nil }

    private var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// Whether a file's size or modification time moved since the previous call, or the
    /// bytes being counted arrived.
    package func hasChanged() throws -> Bool {
        let stamp = cache.changeStamp()
        let counted = bytes.withLock { state in
            defer { state?.isNew = false }
            return state?.isNew == true
        }
        return lastStamp.withLock { last in
            defer { last = stamp }
            return last != stamp
        } || counted
    }

    /// Counts (through indexes) at once; bytes as counted for the files as they are, else
    /// shown as being counted while a thread counts them.
    package func overview() throws -> OverviewSnapshot {
        let stamp = cache.changeStamp()
        var overview = try cache.overview(now: now, countingBytes: false)
        let counted = bytes.withLock { state -> [String: Int64]? in
            if state?.stamp == stamp { return state?.namespaces }
            state = (stamp, nil, false)
            Thread.detachNewThread { [self] in
                // A failed count leaves the bytes shown as being counted until the files change.
                guard let namespaces = try? cache.overview(now: 0, countingBytes: true).namespaces else { return }
                let counted = Dictionary(namespaces.map { ($0.name, $0.bytes ?? 0) }) { first, _ in first }
                self.bytes.withLock { state in
                    if state?.stamp == stamp { state = (stamp, counted, true) }
                }
            }
            return nil
        }
        for index in overview.namespaces.indices {
            overview.namespaces[index].bytes = counted?[overview.namespaces[index].name]
        }
        var file = FileFacts(
            path: overview.path, formatVersion: 0, fileBytes: overview.fileBytes, walBytes: overview.walBytes,
            payloadBytes: counted.map { $0.values.reduce(0, &+) } ?? 0, entries: overview.entries, now: overview.now)
        file.isPayloadCounting = counted == nil
        file.foreignFormat = overview.format.rawValue
        return OverviewSnapshot(
            file: file, stores: [],
            activity: ActivityFacts(
                hitRates: [], hitRate: nil, operationsPerSecond: 0, expirationsPerSecond: 0, evictionsPerSecond: 0),
            namespaces: overview.namespaces.map { namespace in
                var facts = NamespaceFacts(
                    name: namespace.name, entries: namespace.entries, expired: namespace.expired ?? 0,
                    bytes: namespace.bytes ?? 0, hitRate: nil, version: "")
                facts.hasExpiry = namespace.expired != nil
                facts.isBytesCounting = namespace.bytes == nil
                return facts
            })
    }

    package func entries(_ request: EntriesRequest) throws -> EntriesPage {
        let query = ForeignQuery(
            namespace: request.namespace, sort: request.sort, filter: try EntryFilter(parsing: request.filter),
            limit: request.limit, after: try request.start.map { try ForeignCursor(token: $0.rawValue) })
        let page = try readable { try cache.entries(query, now: now) }
        return EntriesPage(
            rows: page.rows.map(Self.info), next: page.next.map { PageToken($0.token) }, examinedRows: page.rows.count)
    }

    package func entry(id: EntryReference, hex: Bool) throws -> EntryDetailSnapshot? {
        guard case .key(let namespace, let key) = id, key.hasPrefix("#"), let row = Int64(key.dropFirst()) else {
            return nil
        }
        guard let detail = try readable({ try cache.entry(ForeignEntryID(namespace: namespace, row: row), hex: hex) })
        else { return nil }
        let value = ValueText(detail.value)
        var snapshot = EntryDetailSnapshot(
            entry: Self.info(detail.entry), namespace: namespace,
            valueBytes: Int(clamping: detail.valueBytes ?? 0), staleUntil: nil,
            version: detail.version ?? "", value: value)
        // Name what the value is: a pickle or a PHP string is shown, never loaded.
        snapshot.valueKind = detail.kind.rawValue + (value.isHexDump ? " · hex dump" : "")
        return snapshot
    }

    package func timeline(namespace: String?) throws -> TimelineSnapshot {
        let timeline = try readable { try cache.timeline(namespace: namespace, now: now) }
        let buckets = timeline.buckets.map { bucket in
            var converted = TimelineSnapshot.Bucket(
                kind: ExpiryBucketKind(rawValue: bucket.label) ?? .never, entries: bucket.entries, bytes: bucket.bytes)
            if timeline.kind == .age { converted.ageLabel = bucket.label }
            return converted
        }
        return TimelineSnapshot(namespace: namespace, buckets: buckets, hourly: timeline.hourly)
    }

    package func statistics(window: StatisticsWindow) throws -> StatisticsSnapshot {
        throw ConsoleError("a \(cache.kind.rawValue) cache records no telemetry")
    }

    /// The actions in the CacheDeck trash beside the cache.
    package func auditLog(limit: Int) throws -> [AuditEntry] {
        try readable { try actions.auditLog(limit: limit, of: admin) }
    }

    package func prepare(_ request: ActionRequest) throws -> PendingAction {
        var pending = try readable { try actions.prepare(request) }
        pending.isUndoable = true
        return pending
    }

    package func run(_ pending: PendingAction, answer: String, progress: @escaping (ActionProgress) -> Bool) throws
        -> ActionResult?
    {
        try readable { try actions.run(pending, answer: answer, progress: progress) }
    }

    package func undo(auditID: Int64) throws -> UndoOutcome {
        try readable { try actions.undo(auditID: auditID) }
    }

    package func export(_ request: ExportRequest) throws -> Int {
        throw ConsoleError("export writes CacheDeck entries; use `cachedeck ls --json` on this file")
    }

    /// `entry` as the Entries screen lists it.
    private static func info(_ entry: ForeignEntry) -> EntryInfo {
        EntryInfo(
            id: .key(namespace: entry.id.namespace, key: "#\(entry.id.row)"), key: entry.key,
            size: Int(clamping: entry.size), createdAt: entry.createdAt, expiresAt: entry.expiresAt,
            lastAccessAt: entry.lastAccessAt, hits: entry.hits, tags: entry.tag.map { [$0] } ?? [], label: entry.label)
    }

    /// Runs `body`, its errors as one line for the console.
    private func readable<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ForeignCacheError {
            throw ConsoleError(error.description)
        }
    }
}
