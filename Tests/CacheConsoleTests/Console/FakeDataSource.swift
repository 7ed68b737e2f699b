import CacheCore
import Foundation
import Synchronization

@testable import CacheConsole
import TerminalUI

/// A console data source with fixed, made-up data and a clock that stands still: the same
/// screens every run. Actions change its entries and audit log like the real thing.
final class FakeDataSource: ConsoleDataSource {
    /// 2027-01-15 08:00:00 UTC.
    static let now: Int64 = 1_800_000_000_000

    struct State {
        var namespaces: [String: [EntryInfo]]
        var audit: [AuditEntry] = []
        var trash: [Int64: (namespace: String, entries: [EntryInfo])] = [:]
        var version = 1
        var seenVersion = 0
        var nextAuditID: Int64 = 1
        var failNextRead: String?
        /// Whether every app has stopped (the processes show stopped; telemetry stays).
        var appsStopped = false
        /// The disk is full: undoable actions delete without keeping anything for undo.
        var diskFull = false
        /// Whether values are binary (shown as hex dumps whatever is asked).
        var binaryValues = false
        /// Expiry buckets (kind, entries, bytes) instead of the sample ones.
        var timelineBuckets: [(ExpiryBucketKind, Int, Int64)]?
        var reads = 0
        /// The format of another library's cache the file claims to be (`nil`: CacheDeck's).
        var foreignFormat: String?
    }

    let location: String
    let isReadOnly: Bool
    let state: Mutex<State>

    init(location: String = "/srv/shop/cache.sqlite", isReadOnly: Bool = false, entries: [String: [EntryInfo]]? = nil) {
        self.location = location
        self.isReadOnly = isReadOnly
        state = Mutex(State(namespaces: entries ?? Self.sampleEntries()))
    }

    /// Makes the next read fail with `message`.
    func failNextRead(_ message: String) {
        state.withLock { $0.failNextRead = message }
    }

    /// Changes the file behind the console's back: `body` edits the entries.
    func change(_ body: (inout [String: [EntryInfo]]) -> Void) {
        state.withLock { state in
            body(&state.namespaces)
            state.version += 1
        }
    }

    // MARK: Sample data

    static func sampleEntries() -> [String: [EntryInfo]] {
        let minute: Int64 = 60_000
        var products: [EntryInfo] = []
        for index in 0..<240 {
            let created = now - Int64(index % 50 + 1) * 37 * minute
            products.append(
                EntryInfo(
                    id: .row(Int64(1000 + index)), key: String(format: "product-%04d", index),
                    size: 400 + index * 13 % 900,
                    createdAt: created,
                    expiresAt: index % 10 == 9 ? nil : created + Int64(index % 7 + 1) * 240 * minute,
                    lastAccessAt: now - Int64(index % 13) * 17_000, hits: index * 7 % 97,
                    tags: index % 4 == 0 ? ["featured"] : index % 4 == 1 ? ["sale", "summer"] : []))
        }
        var sessions: [EntryInfo] = []
        for index in 0..<12 {
            sessions.append(
                EntryInfo(
                    id: .row(Int64(5000 + index)), key: "session:\(String(format: "%08x", 0x5eed_0000 + index * 7919))",
                    size: 180 + index * 11, createdAt: now - Int64(index + 1) * 5 * minute,
                    expiresAt: now + Int64(index - 3) * 2 * minute, lastAccessAt: now - Int64(index) * 9_000,
                    hits: 12 - index, tags: ["user:\(index % 3)"]))
        }
        let hostile = [
            "商品-東京-😀", "\u{1B}[31mred\u{1B}[0m", "evil\u{202E}txt.exe", "bell\u{07}and\ttab", "e\u{301}te\u{301}",
            "👩‍👩‍👧 family",
        ].enumerated().map { index, key in
            EntryInfo(
                id: .row(Int64(9000 + index)), key: key, size: 64 + index, createdAt: now - 3_600_000,
                expiresAt: nil, lastAccessAt: now - 60_000, hits: index,
                tags: index == 1 ? ["\u{1B}]0;pwned\u{07}"] : [])
        }
        return ["products": products, "sessions": sessions, "hostile": hostile]
    }

    // MARK: ConsoleDataSource

    func hasChanged() throws -> Bool {
        state.withLock { state in
            defer { state.seenVersion = state.version }
            return state.seenVersion != state.version
        }
    }

    /// How many reads (overview, entries, detail, …) were made.
    var reads: Int { state.withLock { $0.reads } }

    private func checkFailure() throws {
        if let message = state.withLock({ state -> String? in
            state.reads += 1
            defer { state.failNextRead = nil }
            return state.failNextRead
        }) {
            throw ConsoleError(message)
        }
    }

    func overview() throws -> OverviewSnapshot {
        try checkFailure()
        let namespaces = state.withLock { $0.namespaces }
        let facts = namespaces.keys.sorted().map { name in
            let entries = namespaces[name] ?? []
            var facts = NamespaceFacts(
                name: name, entries: entries.count,
                expired: entries.filter { ($0.expiresAt ?? .max) <= Self.now }.count,
                bytes: Int64(entries.reduce(0) { $0 + $1.size }),
                hitRate: name == "products" ? 0.912 : name == "sessions" ? 0.457 : nil,
                version: name == "products" ? "v3" : "")
            // products has a loader that failed twice; sessions has none (its failures are unknown).
            facts.lastMinute =
                switch name {
                case "products":
                    ActivityCounts(
                        requests: 1_200, misses: 106, evictions: 3, expirations: 12, loadFailures: 2,
                        operationsPerSecond: 35.5)
                case "sessions":
                    ActivityCounts(
                        requests: 400, misses: 217, evictions: 0, expirations: 5, loadFailures: nil,
                        operationsPerSecond: 8.2)
                default: nil
                }
            return facts
        }
        let total = facts.reduce(0) { $0 + $1.entries }
        let payload = facts.reduce(Int64(0)) { $0 + $1.bytes }
        var file = FileFacts(
            path: location, formatVersion: 2, fileBytes: 4_812_800, walBytes: 131_072, payloadBytes: payload,
            entries: total, now: Self.now)
        file.foreignFormat = state.withLock(\.foreignFormat)
        return OverviewSnapshot(
            file: file,
            stores: [
                ProcessFacts(
                    pid: 4242, program: "shop-api", host: "web-1", isLive: !state.withLock(\.appsStopped),
                    lastSeen: Self.now - 1000),
                ProcessFacts(
                    pid: 3977, program: "shop-worker", host: "web-1", isLive: false, lastSeen: Self.now - 7_200_000),
            ],
            activity: ActivityFacts(
                hitRates: (0..<60).map { 0.7 + Double($0 % 12) / 40 }, hitRate: 0.873, operationsPerSecond: 2013,
                expirationsPerSecond: 3.4, evictionsPerSecond: 0),
            namespaces: facts)
    }

    func entries(_ request: EntriesRequest) throws -> EntriesPage {
        try checkFailure()
        let filter = try EntryFilter(parsing: request.filter)
        let rows = state.withLock { $0.namespaces[request.namespace] }
        guard let rows else { throw ConsoleError("no namespace named '\(request.namespace)'") }
        let matching = rows.filter { Self.matches($0, filter) }.sorted { Self.ordered($0, $1, by: request.sort) }
        if request.backward {
            let end = min(matching.count, request.start.flatMap { Int($0.rawValue) } ?? matching.count)
            let start = max(0, end - request.limit)
            return EntriesPage(
                rows: Array(matching[start..<end]), next: start > 0 ? PageToken(String(start)) : nil,
                examinedRows: end - start)
        }
        let start = request.start.flatMap { Int($0.rawValue) } ?? 0
        let end = min(matching.count, start + request.limit)
        return EntriesPage(
            rows: Array(matching[min(start, end)..<end]), next: end < matching.count ? PageToken(String(end)) : nil,
            examinedRows: end - start, matching: request.start == nil && !filter.isEmpty ? matching.count : nil)
    }

    /// Tokens are offsets: the entry's offset in the order is both its position and its start.
    func locate(_ id: EntryReference, in request: EntriesRequest) throws -> EntriesLocation? {
        try checkFailure()
        let filter = try EntryFilter(parsing: request.filter)
        let rows = state.withLock { $0.namespaces[request.namespace] } ?? []
        let matching = rows.filter { Self.matches($0, filter) }.sorted { Self.ordered($0, $1, by: request.sort) }
        return matching.firstIndex { $0.id == id }.map { EntriesLocation(position: $0, start: PageToken(String($0))) }
    }

    func entry(id: EntryReference, hex: Bool) throws -> EntryDetailSnapshot? {
        try checkFailure()
        let found = state.withLock { state -> (String, EntryInfo)? in
            if case .key(let namespace, let key) = id {
                return state.namespaces[namespace]?.first { $0.key == key }.map { (namespace, $0) }
            }
            return state.namespaces.lazy.compactMap { name, rows in rows.first { $0.id == id }.map { (name, $0) } }.first
        }
        guard let (namespace, entry) = found else { return nil }
        let json = """
            {
              "id": \(entry.id.rowID),
              "key": "\(entry.key)",
              "name": "Trail running shoe, waterproof, with a long description that has to wrap across lines",
              "price": { "amount": 129.9, "currency": "EUR" },
              "tags": [\(entry.tags.map { "\"\($0)\"" }.joined(separator: ", "))]
            }
            """
        let value: ValueText =
            hex || state.withLock(\.binaryValues)
            ? .hexDump(
                [
                    "00000000  7b 0a 20 20 22 69 64 22  3a 20 31 30 30 30 2c 0a  |{.  \"id\": 1000,.|",
                    "00000010  20 20 22 6b 65 79 22 3a  20 22 70 72 6f 64 75 63  |  \"key\": \"produc|",
                ], isTruncated: true)
            : .json(json, isTruncated: false)
        return EntryDetailSnapshot(
            entry: entry, namespace: namespace, valueBytes: entry.size - entry.key.utf8.count,
            staleUntil: entry.expiresAt.map { $0 + 3_600_000 }, version: namespace == "products" ? "v3" : "",
            value: value)
    }

    /// The value as stored: the compact JSON the Detail view shows pretty-printed.
    func wholeValue(namespace: String, key: String) throws -> Data? {
        try checkFailure()
        guard let entry = state.withLock({ $0.namespaces[namespace]?.first { $0.key == key } }) else { return nil }
        return Data("{\"id\":\(entry.id.rowID),\"key\":\"\(entry.key)\",\"price\":{\"amount\":129.9}}".utf8)
    }

    func timeline(namespace: String?) throws -> TimelineSnapshot {
        try checkFailure()
        if let buckets = state.withLock(\.timelineBuckets) {
            return TimelineSnapshot(
                namespace: namespace,
                buckets: buckets.map { .init(kind: $0.0, entries: $0.1, bytes: $0.2) },
                hourly: Array(repeating: 0, count: 48))
        }
        let counts: [(ExpiryBucketKind, Int, Int64)] = [
            (.expired, 18, 9_200), (.withinMinute, 2, 1_100), (.withinFiveMinutes, 7, 3_900),
            (.withinHour, 41, 22_300), (.withinDay, 130, 71_000), (.withinWeek, 30, 16_800),
            (.later, 0, 0), (.never, 24, 14_000),
        ]
        return TimelineSnapshot(
            namespace: namespace,
            buckets: counts.map { .init(kind: $0.0, entries: $0.1, bytes: $0.2) },
            hourly: (0..<48).map { hour in hour < 24 ? (hour * 5 + 3) % 17 : hour == 30 ? 25 : 0 })
    }

    func statistics(window: StatisticsWindow) throws -> StatisticsSnapshot {
        try checkFailure()
        let count = 120
        func series(_ scale: Double) -> StatisticsSeries {
            let hitRate: [Double] = (0..<count).map { index -> Double in
                guard index >= 10 else { return .nan }
                let step = Double(index % 20)
                return 0.6 + 0.3 * step / 20
            }
            let operations: [Double] = (0..<count).map { index in scale * Double(100 + (index * 37) % 90) }
            let evictions: [Double] = (0..<count).map { index in index % 30 == 0 ? scale * 4 : 0 }
            // Every namespace's loaders failed 4 times; sessions has none.
            let totals = ActivityCounts(
                requests: Int(scale * 1_000), misses: Int(scale * 90), evictions: Int(scale * 2), expirations: 7,
                loadFailures: scale == 3 ? nil : 4, operationsPerSecond: scale * 140)
            return StatisticsSeries(hitRate: hitRate, operations: operations, evictions: evictions, totals: totals)
        }
        return StatisticsSnapshot(
            window: window, overall: series(20), namespaces: ["products": series(12), "sessions": series(3)])
    }

    func auditLog(limit: Int) throws -> [AuditEntry] {
        try checkFailure()
        return state.withLock { Array($0.audit.reversed().prefix(limit)) }
    }

    func prepare(_ request: ActionRequest) throws -> PendingAction {
        guard !isReadOnly else { throw CacheError.readOnly(path: location) }
        let target: AdminTarget
        switch request {
        case .target(let given): target = given
        case .matching(let namespace, let filter, let expiry):
            let selector: InvalidationSelector =
                filter.isEmpty ? .namespace(namespace) : .prefix(namespace: namespace, prefix: filter)
            target = expiry.map { .expiry(selector: selector, change: $0) } ?? .invalidate(selector)
        case .importFile:
            throw CacheError.unsupported(feature: "import", reason: "the fake source imports nothing")
        }
        let doomed = state.withLock { Self.selected(by: target, in: $0.namespaces) }
        let entries = doomed.values.reduce(0) { $0 + $1.count }
        let bytes = doomed.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.size } }
        let sample = doomed.keys.sorted().flatMap { name in (doomed[name] ?? []).prefix(3).map { "\(name)/\($0.key)" } }
        return PendingAction(
            target: target,
            impact: ActionImpact(
                entries: entries, bytes: bytes, recentHitShare: entries > 0 ? 0.125 : 0,
                sampleKeys: Array(sample.prefix(3)), isDiskFull: state.withLock(\.diskFull)))
    }

    func run(_ pending: PendingAction, answer: String, progress: @escaping (ActionProgress) -> Bool) throws
        -> ActionResult?
    {
        guard !isReadOnly else { throw CacheError.readOnly(path: location) }
        guard pending.accepts(answer) else { return nil }
        _ = progress(ActionProgress(done: pending.impact.entries, total: pending.impact.entries))
        return state.withLock { state in
            let doomed = Self.selected(by: pending.target, in: state.namespaces)
            let ids = Set(doomed.values.flatMap { $0.map(\.id) })
            if case .expiry(_, let change) = pending.target {
                for name in doomed.keys {
                    state.namespaces[name] = state.namespaces[name]?.map { row in
                        guard ids.contains(row.id) else { return row }
                        var changed = row
                        switch change {
                        case .expireNow: changed.expiresAt = Self.now
                        case .set(let milliseconds): changed.expiresAt = milliseconds.map { Self.now + $0 }
                        case .extend(let milliseconds): changed.expiresAt = row.expiresAt.map { $0 + milliseconds }
                        }
                        return changed
                    }
                }
            } else {
                for name in doomed.keys { state.namespaces[name]?.removeAll { ids.contains($0.id) } }
            }
            let auditID = state.nextAuditID
            state.nextAuditID += 1
            let removed = ids.count
            let bytes = doomed.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.size } }
            let undoable = pending.target.isUndoable && !state.diskFull
            if undoable {
                for (name, rows) in doomed {
                    state.trash[auditID] = (name, (state.trash[auditID]?.entries ?? []) + rows)
                }
            }
            state.audit.append(
                AuditEntry(
                    id: auditID, at: Self.now, who: "ops@web-1", action: pending.target.description, entries: removed,
                    bytes: bytes, isUndone: false, canUndo: undoable && removed > 0,
                    sampleKeys: doomed.flatMap { name, rows in rows.map { "\(name)/\($0.key)" } }.sorted().prefix(5).map
                    { $0 }))
            state.version += 1
            return ActionResult(
                target: pending.target,
                outcome: ActionOutcome(
                    auditID: auditID, removed: removed, bytes: bytes, isUndoable: undoable, wasDiskFull: state.diskFull),
                undo: undoable ? UndoHandle(auditID: auditID, summary: pending.target.description) : nil)
        }
    }

    func export(_ request: ExportRequest) throws -> Int {
        try checkFailure()
        let rows = state.withLock { $0.namespaces[request.namespace] ?? [] }
        let chosen = request.keys.map { keys in rows.filter { keys.contains($0.key) } } ?? rows
        let lines = chosen.map { "{\"namespace\":\"\(request.namespace)\",\"key\":\"\($0.key)\"}\n" }.joined()
        try Data(lines.utf8).write(to: URL(fileURLWithPath: request.path))
        return chosen.count
    }

    func undo(auditID: Int64) throws -> UndoOutcome {
        guard !isReadOnly else { throw CacheError.readOnly(path: location) }
        return try state.withLock { state in
            guard let trashed = state.trash.removeValue(forKey: auditID) else {
                throw CacheError.nothingToRestore(reason: "action #\(auditID) was already undone")
            }
            state.namespaces[trashed.namespace, default: []] += trashed.entries
            if let index = state.audit.firstIndex(where: { $0.id == auditID }) {
                state.audit[index].isUndone = true
                state.audit[index].canUndo = false
            }
            let restoreID = state.nextAuditID
            state.nextAuditID += 1
            state.audit.append(
                AuditEntry(
                    id: restoreID, at: Self.now, who: "ops@web-1", action: "restore #\(auditID)",
                    entries: trashed.entries.count, bytes: trashed.entries.reduce(0) { $0 + $1.size }, isUndone: false,
                    canUndo: false))
            state.version += 1
            return UndoOutcome(restored: trashed.entries.count, removed: trashed.entries.count)
        }
    }

    // MARK: Helpers

    private static func selected(by target: AdminTarget, in namespaces: [String: [EntryInfo]]) -> [String: [EntryInfo]]
    {
        var result: [String: [EntryInfo]] = [:]
        for (name, rows) in namespaces {
            let chosen: [EntryInfo]
            switch target {
            case .sweep(let namespace, _):
                chosen = namespace == nil || namespace == name ? rows.filter { ($0.expiresAt ?? .max) <= now } : []
            case .clear(let namespace): chosen = namespace == name ? rows : []
            case .clearAll: chosen = rows
            case .importEntries, .deleteKeys: chosen = []
            case .invalidate(let selector), .expiry(let selector, _):
                chosen = rows.filter { row in
                    switch selector {
                    case .key(let namespace, let key): namespace == name && row.key == key
                    case .keys(let namespace, let keys): namespace == name && keys.contains(row.key)
                    case .prefix(let namespace, let prefix): namespace == name && row.key.hasPrefix(prefix)
                    case .tag(let tag, let namespace): (namespace == nil || namespace == name) && row.tags.contains(tag)
                    case .namespace(let namespace): namespace == name
                    case .all: true
                    }
                }
            }
            if !chosen.isEmpty { result[name] = chosen }
        }
        return result
    }

    private static func matches(_ row: EntryInfo, _ filter: EntryFilter) -> Bool {
        filter.terms.allSatisfy { term in
            switch term {
            case .keyContains(let text): row.key.contains(text)
            case .keyPrefix(let prefix): row.key.hasPrefix(prefix)
            case .tag(let tag): row.tags.contains(tag)
            case .size(let comparison, let bytes): compare(Int64(row.size), comparison, bytes)
            case .hits(let comparison, let count): compare(Int64(row.hits ?? 0), comparison, count)
            case .expiresAt(let comparison, let milliseconds): row.expiresAt.map { compare($0, comparison, milliseconds) } ?? false
            case .createdAt(let comparison, let milliseconds): row.createdAt.map { compare($0, comparison, milliseconds) } ?? false
            case .expired: (row.expiresAt ?? .max) <= now
            case .neverExpires: row.expiresAt == nil
            case .keyMatches, .timeToLive, .age: true
            }
        }
    }

    private static func compare(_ value: Int64, _ comparison: FilterComparison, _ operand: Int64) -> Bool {
        switch comparison {
        case .less: value < operand
        case .lessOrEqual: value <= operand
        case .equal: value == operand
        case .notEqual: value != operand
        case .greaterOrEqual: value >= operand
        case .greater: value > operand
        }
    }

    private static func ordered(_ first: EntryInfo, _ second: EntryInfo, by sort: EntrySort) -> Bool {
        func key(_ row: EntryInfo) -> (Int64, String) {
            switch sort.field {
            case .key, .sortValue: (0, row.key)
            case .size: (Int64(row.size), "")
            case .created: (row.createdAt ?? 0, "")
            case .expires: (row.expiresAt ?? .max, "")
            case .lastAccess: (row.lastAccessAt ?? 0, "")
            case .hits: (Int64(row.hits ?? 0), "")
            }
        }
        let (a, b) = (key(first), key(second))
        if a == b { return sort.descending ? first.id.rowID > second.id.rowID : first.id.rowID < second.id.rowID }
        return sort.descending ? a > b : a < b
    }
}

extension EntryReference {
    /// The row id of a file's entry (0 for a Redis key), to order the fake's rows.
    var rowID: Int64 {
        if case .row(let id) = self { id } else { 0 }
    }
}
