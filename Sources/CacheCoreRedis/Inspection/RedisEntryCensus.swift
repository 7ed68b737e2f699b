import CacheCore
import Foundation
import Synchronization

/// Counts a ``RedisStore``'s entries per namespace with a `SCAN` of its entry keys, a bounded
/// batch at a time: each `step()` is one `SCAN … COUNT` call and one pipeline (`HMGET`,
/// `HSTRLEN`) over the keys it returned, so a caller can show the counts as they grow and stop
/// whenever it likes. On a Redis Cluster every step walks the primaries at once (one thread
/// and connection each), each with its own cursor, each key read on the node that named it.
/// Each walk is paced as the keyspace scan is (``ScanPacing``), so other clients of a busy
/// server keep their latency.
///
/// Only the live generation of each namespace is counted. Counts are exact once
/// ``RedisCensusProgress/isComplete`` (for the entries that existed for the whole scan); until
/// then they are lower bounds, and say so. When a namespace is cleared (its generation moves)
/// or a cluster's slot map changes during the scan, the census starts over.
public final class RedisEntryCensus: SteppedScan {
    /// The `COUNT` hint of each `SCAN` call.
    public let batchSize: Int
    /// The share of the time each server is left alone (see ``ScanPacing``).
    public var idleShare: Double { pacing.idleShare }
    private let pacing: ScanPacing
    private let inspector: RedisStoreInspector
    private let state: Mutex<State>
    private let gate = StepGate()

    private struct State {
        /// One cursor per primary, in the order of `inspector.servers.primaries`.
        var cursors: [ScanCursor]
        /// The cluster's slot map the cursors follow (0 on one server).
        var epoch: Int
        var restarts = 0
        var startedAt: Int64 = 0
        var completedAt: Int64?
        /// Namespace records by escaped name, read when the scan (re)started.
        var namespaces: [Data: RedisNamespace] = [:]
        var tallies: [String: Tally] = [:]

        var isComplete: Bool { cursors.allSatisfy(\.isComplete) }
        var batches: Int { cursors.reduce(0) { $0 + $1.batches } }
    }

    /// What the scan found in one namespace.
    struct Tally {
        var entries = 0
        var bytes: Int64 = 0
        /// Entries and bytes by expiry time rounded up to its ``ExpiryGrain`` (ms); `nil`:
        /// never expires. Bounded whatever the entry count.
        var byExpiry: [Int64?: (entries: Int, bytes: Int64)] = [:]

        mutating func add(_ row: EntryRow, scannedAt: Int64) {
            entries += 1
            bytes += Int64(row.size)
            let expiry = row.expiresAt.map { ExpiryGrain.bucket($0, from: scannedAt) }
            let previous = byExpiry[expiry] ?? (0, 0)
            byExpiry[expiry] = (previous.entries + 1, previous.bytes + Int64(row.size))
        }
    }

    init(inspector: RedisStoreInspector, batchSize: Int, pacing: ScanPacing) {
        self.inspector = inspector
        self.batchSize = min(10_000, max(1, batchSize))
        self.pacing = pacing
        let servers = inspector.servers
        state = Mutex(State(cursors: servers.primaries.map { _ in ScanCursor() }, epoch: servers.epoch))
    }

    /// How far the census is.
    public var progress: RedisCensusProgress {
        state.withLock { Self.progress($0) }
    }

    /// Scans one more batch of every primary not done yet, the primaries at once (one thread
    /// and connection each), unless the census is complete (or another thread is stepping
    /// it). When one primary fails, what the others read is kept and the error thrown; the
    /// next step asks that batch again.
    @discardableResult
    public func step() throws -> RedisCensusProgress {
        try gate.run(busy: { progress }) {
            let servers = inspector.servers
            let epoch = servers.epoch
            let (cursors, started) = state.withLock { state in
                if state.epoch != epoch { restart(&state, epoch: epoch) }
                return (state.cursors, state.batches > 0)
            }
            let open = cursors.indices.filter { !cursors[$0].isComplete }
            guard !open.isEmpty else { return progress }
            let primaries = servers.primaries
            guard primaries.count == cursors.count else {
                state.withLock { restart(&$0, epoch: epoch) }
                return progress
            }
            let keys = inspector.keys
            let namespaces = try RedisStore.mapping(inspector.endpoint) {
                try RedisNamespace.readAll(keys: keys, servers: servers)
            }
            let current = Dictionary(
                namespaces.map { (Data(keys.segment($0.name).utf8), $0) }, uniquingKeysWith: { first, _ in first })
            let reads = threadPerTask(open.count) { position in
                let index = open[position]
                return self.pacing.paced {
                    Result {
                        try RedisStore.mapping(self.inspector.endpoint) {
                            try self.read(cursors[index], on: primaries[index], namespaces: current)
                        }
                    }
                }
            }
            var failure: (any Error)?
            let progress = state.withLock { state in
                let moved =
                    started
                    && current.contains { name, record in
                        state.namespaces[name].map { $0.generation != record.generation } ?? false
                    }
                state.namespaces = current
                if moved {
                    restart(&state, epoch: epoch)
                    return Self.progress(state)
                }
                if !started { state.startedAt = RedisStoreInspector.now() }
                for (index, read) in zip(open, reads) {
                    switch read {
                    case .success(let (next, rows)):
                        for row in rows {
                            state.tallies[row.namespace, default: Tally()].add(row, scannedAt: state.startedAt)
                        }
                        state.cursors[index] = next
                    case .failure(let error): failure = failure ?? error
                    }
                }
                if state.isComplete { state.completedAt = RedisStoreInspector.now() }
                return Self.progress(state)
            }
            if let failure { throw failure }
            // Every primary walked: had slots moved meanwhile, entries may have gone to a node
            // walked before, so the census starts over on the new map.
            if progress.isComplete, case .cluster(let router) = servers {
                try RedisStore.mapping(inspector.endpoint) { try router.refresh() }
                if router.epoch != epoch {
                    return state.withLock { state in
                        restart(&state, epoch: router.epoch)
                        return Self.progress(state)
                    }
                }
            }
            return progress
        }
    }

    /// One `SCAN` batch of `primary` from `cursor` and the live-generation entries it named
    /// (their rows read in one pipeline on the same node); returns the cursor after it.
    private func read(_ cursor: ScanCursor, on primary: RedisPool, namespaces current: [Data: RedisNamespace])
        throws -> (ScanCursor, [EntryRow])
    {
        let keys = inspector.keys
        let entryPrefix = Data(keys.entryPrefix.utf8)
        return try primary.withConnection { connection in
            var next = cursor
            if next.batches == 0 { next.keysInDatabase = try connection.command(["DBSIZE"]).integer }
            let names = try next.advance(
                with: try connection.command(
                    next.command(match: Data((RedisKeys.glob(keys.entryPrefix) + "*").utf8), count: batchSize)),
                from: connection.endpoint.description)
            var wanted: [(name: Data, namespace: RedisNamespace, keyStart: Int)] = []
            for name in names {
                guard let parts = RedisEntryReader.parse(name, entryPrefix: entryPrefix),
                    let namespace = current[parts.escapedNamespace], namespace.generation == parts.generation
                else { continue }
                wanted.append((name, namespace, name.count - parts.key.count))
            }
            var rows: [EntryRow] = []
            for (namespace, group) in Dictionary(grouping: wanted, by: \.namespace.name) {
                let found = try RedisEntryReader.rows(
                    group.map(\.name), keyStart: group[0].keyStart, namespace: namespace,
                    version: group[0].namespace.version, value: false, on: connection)
                rows += found.compactMap { $0 }
            }
            return (next, rows)
        }
    }

    /// Starts the census over on the primaries of slot map `epoch`.
    private func restart(_ state: inout State, epoch: Int) {
        state.restarts += 1
        state.cursors = inspector.servers.primaries.map { _ in ScanCursor() }
        state.epoch = epoch
        state.tallies = [:]
        state.completedAt = nil
        state.startedAt = RedisStoreInspector.now()
    }

    /// Every namespace (from the namespace set) with what the census counted in it so far,
    /// by name; expired entries are those whose expiry is past at `now`.
    public func namespaces(now: Int64? = nil) -> [RedisNamespaceCount] {
        let now = now ?? RedisStoreInspector.now()
        return state.withLock { state in
            let progress = Self.progress(state)
            return state.namespaces.values.sorted { $0.name < $1.name }.map { namespace in
                let tally = state.tallies[namespace.name] ?? Tally()
                let expired = tally.byExpiry.reduce(0) { total, item in
                    total + ((item.key.map { now >= $0 } ?? false) ? item.value.entries : 0)
                }
                return RedisNamespaceCount(
                    namespace: namespace, entries: tally.entries, expiredEntries: expired, bytes: tally.bytes,
                    isExact: progress.isComplete)
            }
        }
    }

    /// When the counted entries of `namespace` (or of every namespace) expire, relative to
    /// `now`: exact once the census is complete, a lower bound per range before.
    ///
    /// - Throws: `InspectorError/noSuchNamespace(_:)` for a namespace not in the namespace set.
    public func expiryTimeline(namespace: String? = nil, now: Int64? = nil) throws -> ExpiryTimeline {
        let now = now ?? RedisStoreInspector.now()
        let ranges = ExpiryRanges(now: now)
        let cells: [ExpiryCounts.Cell] = try state.withLock { state in
            if let namespace, !state.namespaces.values.contains(where: { $0.name == namespace }) {
                throw InspectorError.noSuchNamespace(namespace)
            }
            let tallies = state.tallies.filter { namespace == nil || $0.key == namespace }.values
            return tallies.flatMap { tally in
                tally.byExpiry.map { expiry, total in
                    ExpiryCounts.Cell(range: ranges.index(of: expiry), entries: total.entries, bytes: total.bytes)
                }
            }
        }
        return ranges.timeline(namespace: namespace, counts: ExpiryCounts(cells: cells))
    }

    private static func progress(_ state: State) -> RedisCensusProgress {
        RedisCensusProgress(
            entriesFound: state.tallies.values.reduce(0) { $0 + $1.entries }, batches: state.batches,
            restarts: state.restarts, startedAt: state.startedAt, completedAt: state.completedAt,
            isComplete: state.isComplete)
    }
}

/// The resolution a census keeps expiry times at, so its tallies stay bounded however many
/// entries it counts: to the second for the next two hours, rounded up (an entry is never
/// counted expired early; it may count as live for up to a second after it expired); to the
/// minute up to eight days, rounded down (an entry set with a TTL of a whole number of hours
/// stays in the hour it was set for); and one bucket beyond (the timeline's last range starts
/// at seven days). A timeline's hour edges are thus exact to the minute past two hours.
enum ExpiryGrain {
    private static let fine: Int64 = 1000
    private static let coarse: Int64 = 60_000
    private static let fineHorizon: Int64 = 2 * 3_600_000
    private static let coarseHorizon: Int64 = 8 * 86_400_000

    /// The bucket of an entry expiring at `expiresAt`, counted at `scannedAt`.
    static func bucket(_ expiresAt: Int64, from scannedAt: Int64) -> Int64 {
        let ahead = expiresAt.subtractingClamped(scannedAt)
        if ahead >= coarseHorizon { return scannedAt.addingClamped(coarseHorizon) }
        if ahead >= fineHorizon { return expiresAt - ((expiresAt % coarse) + coarse) % coarse }
        let (quotient, remainder) = expiresAt.quotientAndRemainder(dividingBy: fine)
        return (remainder > 0 ? quotient.addingClamped(1) : quotient).multipliedClamped(by: fine)
    }
}

/// How far a ``RedisEntryCensus`` is.
public struct RedisCensusProgress: Sendable, Hashable, SteppedScanProgress {
    /// Live-generation entries counted so far.
    public var entriesFound: Int
    /// `SCAN` calls made since the census (re)started.
    public var batches: Int
    /// How many times a clear during the scan started it over.
    public var restarts: Int
    /// When the scan (re)started (ms since 1970).
    public var startedAt: Int64
    /// When it completed; `nil` while it runs.
    public var completedAt: Int64?
    /// Whether the scan went through the whole keyspace: counts are exact, not lower bounds.
    public var isComplete: Bool
}

/// One namespace of a ``RedisStore`` with what a ``RedisEntryCensus`` counted in it.
public struct RedisNamespaceCount: Sendable, Hashable {
    /// The namespace's record.
    public var namespace: RedisNamespace
    /// Stored entries of the live generation (expired ones still in their stale window included).
    public var entries: Int
    /// Of those, the ones whose expiry has passed.
    public var expiredEntries: Int
    /// Their key plus value bytes.
    public var bytes: Int64
    /// Whether the counts are exact (the census completed) rather than lower bounds.
    public var isExact: Bool
}
