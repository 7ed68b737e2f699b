import TerminalUI
import CacheCore
import Foundation

/// The console's data from a cache file: CacheCore's ``Inspector``, telemetry, client list
/// and audit log for reading, and the ``ActionController`` for every action. No SQL here.
package struct StoreDataSource: ConsoleDataSource {
    private let store: CacheStore
    private let watcher: ChangeWatcher
    private let actions: ConsoleActions

    /// A data source over `store`; actions are refused when it is read-only.
    package init(store: CacheStore) throws {
        self.store = store
        watcher = try store.inspector.changeWatcher()
        actions = ConsoleActions(
            controller: store.isReadOnly ? nil : ActionController(store: store), location: store.path,
            filters: .file(store))
    }

    /// Opens the cache file at `path` for the console: never created or moved aside, and
    /// read-only when `readOnly`.
    package static func open(path: String, readOnly: Bool, allowWritable: Bool = false) throws -> StoreDataSource {
        var options = StoreOptions.inspection(writable: !readOnly)
        if allowWritable { options.fileTrust = .any }
        return try StoreDataSource(store: CacheStore(path: path, options: options))
    }

    /// The file's path.
    package var location: String { store.path }

    /// Whether the store was opened read-only.
    package var isReadOnly: Bool { actions.controller == nil }

    /// One `PRAGMA data_version` (see ``ChangeWatcher``).
    package func hasChanged() throws -> Bool {
        try watcher.hasChanged()
    }

    /// The inspector's summary (with the attached processes and the last minute), its
    /// namespaces, and the last minute second by second for the sparkline.
    package func overview() throws -> OverviewSnapshot {
        let inspector = store.inspector
        let summary = try inspector.summary()
        let namespaces = try inspector.namespaces()
        let seconds = try inspector.activity(over: TelemetryWindow(duration: .seconds(60), resolution: .seconds(1)))
        // The newest second is still filling: rates are over the ten before it.
        let recent = seconds.points.dropLast().suffix(10)
        let span = Double(max(1, recent.count))
        let requests = recent.reduce(0) { $0 + $1.requests }
        return OverviewSnapshot(
            file: FileFacts(
                path: summary.path, formatVersion: summary.formatVersion, fileBytes: summary.fileBytes,
                walBytes: summary.walBytes, payloadBytes: summary.payloadBytes, entries: summary.entryCount,
                now: summary.now, owner: store.fileOwner),
            stores: summary.processes.sorted { $0.id < $1.id }.map {
                ProcessFacts(
                    pid: $0.pid, program: $0.program, host: $0.host, isLive: $0.isLive, lastSeen: $0.lastHeartbeatAt)
            },
            activity: ActivityFacts(
                hitRates: seconds.points.map { $0.hitRate ?? .nan },
                hitRate: requests > 0 ? Double(recent.reduce(0) { $0 + $1.hits }) / Double(requests) : nil,
                operationsPerSecond: recent.reduce(0) { $0 + $1.operationsPerSecond } / span,
                expirationsPerSecond: recent.reduce(0) { $0 + $1.perSecond($1.expirations) } / span,
                evictionsPerSecond: recent.reduce(0) { $0 + $1.evictionsPerSecond } / span),
            namespaces: namespaces.map { namespace in
                var facts = NamespaceFacts(
                    name: namespace.name, entries: namespace.entryCount, expired: namespace.expiredEntryCount,
                    bytes: namespace.bytes, hitRate: namespace.lastMinute.hitRate, version: namespace.version)
                facts.lastMinute = ActivityCounts(namespace.lastMinute)
                return facts
            }, tags: try inspector.tags())
    }

    /// A page from the inspector; a filtered walk that stops short at the scan limit goes on
    /// for a few more steps before it returns what it found.
    /// A read backwards walks the reversed order from the same place.
    package func entries(_ request: EntriesRequest) throws -> EntriesPage {
        let filter = try EntryFilter(parsing: request.filter)
        var query = EntryQuery(
            namespace: request.namespace, sort: request.sort, filter: filter, limit: request.limit, previewBytes: 0)
        query.after = try request.start.map(Self.cursor)
        if request.backward {
            guard let reversed = query.after?.reversed else { throw ConsoleError("this order cannot be read upwards") }
            query.sort.descending.toggle()
            query.after = reversed
        }
        var rows: [EntryInfo] = []
        var examined = 0
        for _ in 0..<4 {
            let page = try store.inspector.entries(query)
            rows += page.rows.map { EntryInfo($0, id: .row($0.id)) }
            examined += page.examinedRows
            query.after = page.next
            query.limit = request.limit - rows.count
            guard page.next != nil, query.limit > 0 else { break }
        }
        let matching =
            request.start == nil && !filter.isEmpty
            ? try store.inspector.count(namespace: request.namespace, filter: filter).entries : nil
        if request.backward {
            return EntriesPage(
                rows: rows.reversed(), next: query.after?.reversed.map(Self.token), examinedRows: examined)
        }
        return EntriesPage(rows: rows, next: query.after.map(Self.token), examinedRows: examined, matching: matching)
    }

    /// The inspector's location of the row (see `Inspector.locate(id:in:)`); `nil` in an order
    /// the rows above it cannot be read upwards in.
    package func locate(_ id: EntryReference, in request: EntriesRequest) throws -> EntriesLocation? {
        guard case .row(let row) = id else { return nil }
        let query = EntryQuery(
            namespace: request.namespace, sort: request.sort, filter: try EntryFilter(parsing: request.filter))
        guard let location = try store.inspector.locate(id: row, in: query), location.start.reversed != nil else {
            return nil
        }
        return EntriesLocation(position: location.position, start: Self.token(location.start))
    }

    /// The entry from the inspector (by row id, or by namespace and key), its value
    /// pretty-printed or hex-dumped.
    package func entry(id: EntryReference, hex: Bool) throws -> EntryDetailSnapshot? {
        let options = EntryDetailOptions(format: hex ? .hexDump : .automatic)
        let detail =
            switch id {
            case .row(let row): try store.inspector.entry(id: row, options: options)
            case .key(let namespace, let key):
                try store.inspector.entry(namespace: namespace, key: key, options: options)
            }
        return detail.map { EntryDetailSnapshot($0, id: id) }
    }

    /// The inspector's expiry timeline.
    package func timeline(namespace: String?) throws -> TimelineSnapshot {
        TimelineSnapshot(try store.inspector.expiryTimeline(namespace: namespace))
    }

    /// The inspector's activity series over the window, for every namespace together and
    /// for each one.
    package func statistics(window: StatisticsWindow) throws -> StatisticsSnapshot {
        let inspector = store.inspector
        let telemetryWindow: TelemetryWindow =
            switch window {
            case .fiveMinutes: .fiveMinutes
            case .hour: .hour
            case .day: .day
            }
        func series(_ namespace: String?) throws -> StatisticsSeries {
            StatisticsSeries(try inspector.activity(namespace: namespace, over: telemetryWindow))
        }
        var namespaces: [String: StatisticsSeries] = [:]
        for namespace in try inspector.namespaces() { namespaces[namespace.name] = try series(namespace.name) }
        return StatisticsSnapshot(window: window, overall: try series(nil), namespaces: namespaces)
    }

    /// The whole value, through the inspector.
    package func wholeValue(namespace: String, key: String) throws -> Data? {
        try store.inspector.wholeValue(namespace: namespace, key: key)
    }

    /// The entries `request` selects, through the inspector, as JSON Lines.
    /// Exports with the cache file's permission bits.
    package func export(_ request: ExportRequest) throws -> Int {
        var request = request
        request.takePermissions(ofFileAt: store.path)
        return try EntryExporter.export(request, from: store.inspector)
    }

    /// Compacts the file (see `CacheStore.compact(progress:)`).
    package func compact(progress: @escaping (CompactionProgress) -> Bool) throws -> CompactionOutcome {
        try store.compact(progress: progress)
    }

    /// The admin audit log.
    package func auditLog(limit: Int) throws -> [AuditEntry] {
        try actions.auditLog(limit: limit, of: store.admin)
    }

    /// Measures the action through the action controller; a filter becomes a prefix, a tag,
    /// the whole namespace or its matching keys.
    package func prepare(_ request: ActionRequest) throws -> PendingAction {
        try actions.prepare(request)
    }

    /// Runs the action through the action controller.
    package func run(_ pending: PendingAction, answer: String, progress: @escaping (ActionProgress) -> Bool) throws
        -> ActionResult?
    {
        try actions.run(pending, answer: answer, progress: progress)
    }

    /// Undoes an action through the action controller.
    package func undo(auditID: Int64) throws -> UndoOutcome {
        try actions.undo(auditID: auditID)
    }

    private static func token(_ cursor: EntryCursor) -> PageToken {
        PageToken(cursor.token)
    }

    private static func cursor(_ token: PageToken) throws -> EntryCursor {
        try EntryCursor(token: token.rawValue)
    }
}
