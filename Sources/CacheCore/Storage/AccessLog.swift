import Foundation
import Synchronization

/// Reads recorded in memory and written to the file later, so a read is never a write:
/// access times and hit counts (for LRU eviction and the console), and expired rows found by
/// reads, to be deleted lazily.
///
/// File reads are recorded by entry id as they happen. Memory-tier hits of hybrid namespaces
/// stay in their tier's read buffer (a hit adds to it and does nothing more) until the log
/// takes them, whenever it is written or asked whether it is empty; they count as reads at
/// that moment, so a memory hit's last access is late by up to one write interval.
///
/// A writable store's background thread writes it every second in bounded transactions;
/// eviction, ``CacheStore/flush()`` and close write all of it. Sets never carry it (that
/// made a set under heavy reads pay for a hundred row updates). When the log is full, reads of entries not yet in it are not recorded (hit
/// counts are then lower bounds), which bounds its memory in read-only workloads.
final class AccessLog: Sendable {
    struct Pending: Sendable {
        var accesses: [Int64: Access] = [:]
        var expired: Set<Int64> = []
        /// Memory-tier hits, by namespace row and key.
        var memoryHits: [MemoryRead: Access] = [:]

        var isEmpty: Bool { accesses.isEmpty && expired.isEmpty && memoryHits.isEmpty }
        var count: Int { accesses.count + expired.count + memoryHits.count }
    }

    /// The entry a memory hit read: its file row is found by key (the tier does not know it).
    struct MemoryRead: Hashable, Sendable {
        let namespaceID: Int64
        let key: String
    }

    /// A hybrid namespace whose memory hits this log takes, held weakly.
    private struct MemorySource: Sendable {
        weak var runtime: NamespaceRuntime?
    }

    struct Access: Sendable {
        var lastAt: Int64
        var hits: Int64

        mutating func record(at now: Int64, hits added: Int64 = 1) {
            hits = hits.addingClamped(added)
            lastAt = max(lastAt, now)
        }
    }

    /// Distinct entries the log holds at most.
    static let capacity = 8192
    /// Records one background transaction writes (a few ms of the writer lock at most).
    static let backgroundSlice = 512

    private let pending = Mutex(Pending())
    private let memorySources = Mutex<[MemorySource]>([])
    private let clock: any CacheClock

    /// A log whose memory hits count as reads at `clock`'s time when taken.
    init(clock: any CacheClock) { self.clock = clock }

    /// Takes the memory hits of `runtime` (a hybrid namespace) from now on.
    func takeMemoryHits(of runtime: NamespaceRuntime) {
        memorySources.withLock { sources in
            sources.removeAll { $0.runtime == nil }
            if !sources.contains(where: { $0.runtime === runtime }) { sources.append(MemorySource(runtime: runtime)) }
        }
    }

    /// Moves the memory tiers' read buffers into the log.
    private func collectMemoryHits() {
        let runtimes = memorySources.withLock { $0.compactMap(\.runtime) }
        guard !runtimes.isEmpty else { return }
        let now = clock.nowMilliseconds()
        for runtime in runtimes {
            guard let reads = runtime.memory?.takeReads(), !reads.isEmpty, let namespaceID = runtime.namespaceID
            else { continue }
            pending.withLock { pending in
                for (key, hits) in reads {
                    let read = MemoryRead(namespaceID: namespaceID, key: key)
                    if pending.memoryHits[read] == nil && pending.memoryHits.count >= Self.capacity { continue }
                    pending.memoryHits[read, default: Access(lastAt: now, hits: 0)].record(at: now, hits: hits)
                }
            }
        }
    }

    /// Records a hit on entry `id` at `now`.
    func recordHit(_ id: Int64, at now: Int64) {
        pending.withLock { pending in
            if pending.accesses[id] == nil && pending.accesses.count >= Self.capacity { return }
            pending.accesses[id, default: Access(lastAt: now, hits: 0)].record(at: now)
        }
    }

    /// Records that entry `id` was found past its stale window; it will be deleted if still so.
    func recordExpired(_ id: Int64) {
        pending.withLock { pending in
            if pending.expired.count < Self.capacity { pending.expired.insert(id) }
        }
    }

    /// Whether nothing waits to be written (memory hits included).
    var isEmpty: Bool {
        collectMemoryHits()
        return pending.withLock { $0.isEmpty }
    }

    /// The hits on entry `id`, which is `key` in namespace row `namespaceID`, recorded here
    /// (memory hits included) and not yet written to the file.
    func pendingHits(_ id: Int64, namespaceID: Int64, key: String) -> Int64 {
        collectMemoryHits()
        return pending.withLock { pending in
            (pending.accesses[id]?.hits ?? 0).addingClamped(
                pending.memoryHits[MemoryRead(namespaceID: namespaceID, key: key)]?.hits ?? 0)
        }
    }

    /// Takes up to `limit` records (all when `nil`), memory hits included, leaving the rest.
    func drain(limit: Int? = nil) -> Pending {
        collectMemoryHits()
        return pending.withLock { pending in
            guard let limit, pending.count > limit else {
                defer { pending = Pending() }
                return pending
            }
            var slice = Pending()
            for id in pending.expired.prefix(limit) {
                slice.expired.insert(id)
                pending.expired.remove(id)
            }
            for (id, access) in pending.accesses.prefix(limit - slice.expired.count) {
                slice.accesses[id] = access
                pending.accesses[id] = nil
            }
            for (read, access) in pending.memoryHits.prefix(limit - slice.count) {
                slice.memoryHits[read] = access
                pending.memoryHits[read] = nil
            }
            return slice
        }
    }

    /// Writes `batch` with `connection` (inside the caller's write transaction), in row order
    /// so neighbouring rows share page writes.
    static func write(_ batch: Pending, to connection: SQLiteConnection, now: Int64) throws {
        for (id, access) in batch.accesses.sorted(by: { $0.key < $1.key }) {
            try connection.recordAccess(id: id, lastAt: access.lastAt, hits: access.hits)
        }
        for (read, access) in batch.memoryHits {
            try connection.recordAccess(
                namespaceID: read.namespaceID, key: read.key, lastAt: access.lastAt, hits: access.hits)
        }
        guard !batch.expired.isEmpty else { return }
        try connection.fillDoomed(purgeable: batch.expired.sorted(), now: now)
        try connection.deleteDoomed()
    }

    /// Writes what is recorded, `backgroundSlice` records per transaction (so the app's writes
    /// wait for one short transaction at most), until it is empty or `atMost` records were
    /// written (reads recorded meanwhile wait for the next call).
    func writeInSlices(to database: Database, now: Int64, atMost: Int = .max) throws {
        var written = 0
        guard !isEmpty else { return }
        try BatchRunner(database: database, sizing: .fixed(Self.backgroundSlice)).run(
            onDiskFull: { .fail },
            batch: { connection, limit in
                let slice = drain(limit: limit)
                try Self.write(slice, to: connection, now: now)
                let count = slice.count
                return (count, count, isEmpty)
            },
            committed: { count in
                written += count
                return written < atMost
            })
    }
}
