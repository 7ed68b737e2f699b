import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation
import Synchronization

/// The console's data from a ``RedisStore``'s keys on a Redis server, through CacheCore's
/// read-only ``RedisStoreInspector``: namespaces and counts from a census (bounded `SCAN`
/// batches on a thread of its own; lower bounds until it completes, then recounted every
/// ``recountInterval``), entry pages by `SCAN` cursor, hit rates and rates from every host's
/// counters sampled at each refresh (the Overview and the 5-minute statistics) or from their
/// per-minute telemetry on the server (the hour and day statistics), and the raw keyspace
/// through a ``KeyspaceDataSource``.
/// Actions, undo and the audit log go through the store's ``RedisAdmin``, and the deletion of
/// the database's other keys (`d` in the keyspace tree) through its `RedisKeyspaceAdmin`,
/// in one log (see `StoreAndKeysAdmin`); a read-only source
/// opens no store and sends no write command.
package final class RedisStoreDataSource: ConsoleDataSource {
    /// How long complete counts are shown before a new census starts (the old one is shown
    /// until the new one completes).
    static let recountInterval = Duration.seconds(15)

    private let inspector: RedisStoreInspector
    private let keyspaceSource: KeyspaceDataSource
    private let census: ScanRunner<RedisEntryCensus>
    private let history = Mutex(CounterHistory())
    /// The store actions run on (`nil` when read-only).
    private let store: RedisStore?
    private let actions: ConsoleActions

    /// Connects to `url` for the store under `prefix` (one line on failure); `readOnly` opens
    /// no store, so nothing is written.
    package init(
        url: String, prefix: String = RedisStoreOptions.defaultPrefix, separator: String = ":", readOnly: Bool = false
    ) throws {
        let inspector = try RedisStoreInspector(url: url, prefix: prefix)
        self.inspector = inspector
        keyspaceSource = try KeyspaceDataSource(url: url, separator: separator, storePrefix: prefix)
        census = ScanRunner(recount: Self.recountInterval) { inspector.census() }
        var options = StoreOptions()
        options.statistics.isEnabled = false
        let store =
            readOnly ? nil : try RedisStore(url: url, options: options, redis: RedisStoreOptions(prefix: prefix))
        self.store = store
        actions = ConsoleActions(
            controller: store.map(ActionController.init(store:)), location: inspector.redactedURL,
            filters: .redis(inspector))
    }

    deinit {
        census.stop()
        store?.close()
    }

    /// Whether the database at `url` holds a store under `prefix`.
    package static func holdsStore(url: String, prefix: String) throws -> Bool {
        try RedisStoreInspector(url: url, prefix: prefix).holdsStore()
    }

    package var location: String { inspector.redactedURL }
    package var isReadOnly: Bool { store == nil }
    package var hasKeyspace: Bool { true }

    /// Always `true`: the server has no change counter a read could check, and reads are bounded.
    package func hasChanged() throws -> Bool { true }

    package func overview() throws -> OverviewSnapshot {
        let census = try countedCensus()
        let now = Self.now()
        let server = try inspector.server()
        let clients = try inspector.clients()
        let totals = try inspector.sharedStatistics().namespaces
        let history = history.withLock { history in
            history.record(totals, at: now)
            return history
        }
        let progress = census.progress
        let counts = census.namespaces(now: now)
        let seconds = history.series(nil, now: now, resolution: 1000, points: 60)
        let recent = history.delta(nil, from: now - 10_000, until: now, reach: 1000)
        let perSecond = { (count: Int) in recent.map { Double(count) / max(0.001, Double($0.milliseconds) / 1000) } }
        let lastMinute = { (namespace: String?) in history.activity(namespace, from: now - 60_000, until: now) }
        return OverviewSnapshot(
            file: FileFacts(
                path: location, formatVersion: 0, fileBytes: Int64(server.usedMemory), walBytes: 0,
                payloadBytes: counts.reduce(0) { $0 + $1.bytes }, entries: counts.reduce(0) { $0 + $1.entries },
                now: now),
            stores: clients.sorted { $0.id < $1.id }.map {
                ProcessFacts(
                    pid: $0.pid, program: $0.program, host: $0.host, isLive: $0.isLive,
                    lastSeen: Int64(($0.lastSeen.timeIntervalSince1970 * 1000).rounded(.down)))
            },
            activity: ActivityFacts(
                hitRates: seconds.hitRate,
                hitRate: recent.flatMap { $0.counted.requests > 0 ? $0.counted.hitRate : nil },
                operationsPerSecond: perSecond(recent.map { CounterHistory.operations($0.counted) } ?? 0) ?? 0,
                expirationsPerSecond: perSecond(recent?.counted.expirations ?? 0) ?? 0,
                evictionsPerSecond: perSecond(recent?.counted.evictions ?? 0) ?? 0),
            namespaces: counts.map { count in
                let activity = lastMinute(count.namespace.name)
                var facts = NamespaceFacts(
                    name: count.namespace.name, entries: count.entries, expired: count.expiredEntries,
                    bytes: count.bytes, hitRate: activity?.hitRate, version: count.namespace.version,
                    isExact: count.isExact)
                facts.lastMinute = activity.map(ActivityCounts.init)
                return facts
            },
            redis: RedisFacts(server: server, prefix: inspector.prefix, countedAt: progress.completedAt))
    }

    /// A page in `SCAN` order (the order asked for cannot be had without reading every key).
    package func entries(_ request: EntriesRequest) throws -> EntriesPage {
        let filter = try EntryFilter(parsing: request.filter)
        let query = RedisEntryQuery(
            namespace: request.namespace, filter: filter, limit: request.limit,
            after: try request.start.map { try RedisEntryCursor(token: $0.rawValue) })
        let page = try inspector.entries(query)
        return EntriesPage(
            rows: page.rows.map { EntryInfo($0, id: .key(namespace: $0.namespace, key: $0.key), recordsReads: false) },
            next: page.next.map { PageToken($0.token) }, examinedRows: page.examinedKeys, isScanOrder: true)
    }

    package func entry(id: EntryReference, hex: Bool) throws -> EntryDetailSnapshot? {
        guard case .key(let namespace, let key) = id else { return nil }
        let options = EntryDetailOptions(format: hex ? .hexDump : .automatic)
        return try inspector.entry(namespace: namespace, key: key, options: options).map {
            EntryDetailSnapshot($0, id: id, recordsReads: false)
        }
    }

    /// The census's timeline: exact once it completed, lower bounds before.
    package func timeline(namespace: String?) throws -> TimelineSnapshot {
        let census = try countedCensus()
        return TimelineSnapshot(
            try census.expiryTimeline(namespace: namespace), isExact: census.progress.isComplete)
    }

    /// The hour and day windows from every host's per-minute telemetry on the server
    /// (``RedisStoreInspector/activity(namespace:over:)``), so they reach back before the
    /// console opened; the 5-minute window (5-second points, finer than those minutes) from
    /// the counters sampled since the console started (earlier points are empty), as the
    /// Overview's per-second hit sparkline.
    package func statistics(window: StatisticsWindow) throws -> StatisticsSnapshot {
        let telemetryWindow: TelemetryWindow =
            switch window {
            case .fiveMinutes: .fiveMinutes
            case .hour: .hour
            case .day: .day
            }
        let now = Self.now()
        let names = try inspector.namespaces().map(\.name)
        let series: (String?) throws -> StatisticsSeries
        if window == .fiveMinutes {
            let history = history.withLock { $0 }
            let resolution = telemetryWindow.resolutionMilliseconds
            let points = telemetryWindow.pointCount
            series = { history.series($0, now: now, resolution: resolution, points: points) }
        } else {
            series = { [inspector] namespace in
                StatisticsSeries(try inspector.activity(namespace: namespace, over: telemetryWindow))
            }
        }
        var namespaces: [String: StatisticsSeries] = [:]
        for name in names { namespaces[name] = try series(name) }
        return StatisticsSnapshot(window: window, overall: try series(nil), namespaces: namespaces)
    }

    package func keyspace(_ request: KeyspaceRequest) throws -> KeyspaceSnapshot {
        try keyspaceSource.keyspace(request)
    }

    package func redisKey(_ key: Data) throws -> RedisKeyDetail? {
        try keyspaceSource.redisKey(key)
    }

    package func keyspaceBreakdown(_ prefix: Data) throws -> KeyspaceBreakdown {
        try keyspaceSource.keyspaceBreakdown(prefix)
    }

    package func topology() throws -> RedisTopology {
        try keyspaceSource.topology()
    }

    package func latency(count: Int) throws -> [RedisNodeLatency] {
        try keyspaceSource.latency(count: count)
    }

    // MARK: Actions

    /// The audit log under the prefix (needs the store: a read-only console says so).
    package func auditLog(limit: Int) throws -> [AuditEntry] {
        guard let store else {
            throw ConsoleError("the audit log on Redis needs a console that is not --read-only")
        }
        return try actions.auditLog(limit: limit, of: store.adminWithKeys)
    }

    package func prepare(_ request: ActionRequest) throws -> PendingAction { try actions.prepare(request) }

    /// Runs the action, then counts and scans afresh (what was shown before it is no longer true).
    package func run(_ pending: PendingAction, answer: String, progress: @escaping (ActionProgress) -> Bool) throws
        -> ActionResult?
    {
        defer { recount() }
        return try actions.run(pending, answer: answer, progress: progress)
    }

    /// Undoes the action, then counts and scans afresh.
    package func undo(auditID: Int64) throws -> UndoOutcome {
        defer { recount() }
        return try actions.undo(auditID: auditID)
    }

    /// The whole value, through the inspector.
    package func wholeValue(namespace: String, key: String) throws -> Data? {
        try inspector.wholeValue(namespace: namespace, key: key)
    }

    /// Writes the entries as JSON Lines (``EntryExporter``), in `SCAN` order.
    package func export(_ request: ExportRequest) throws -> Int {
        try EntryExporter.export(request, from: inspector)
    }

    // MARK: Counting

    /// The census to show: the last complete one, else the one counting.
    private func countedCensus() throws -> RedisEntryCensus {
        try census.current()
    }

    /// Drops the counts shown and starts a new census (shown as lower bounds until it completes).
    /// Counts and scans the keyspace afresh.
    private func recount() {
        census.restart()
        keyspaceSource.rescan()
    }

    private static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}
