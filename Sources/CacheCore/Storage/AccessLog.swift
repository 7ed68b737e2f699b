import Foundation
import Synchronization

/// Reads recorded in memory and written to the file later, so a read is never a write:
/// access times and hit counts (for LRU eviction and the console), and expired rows found by
/// reads, to be deleted lazily.
///
/// A writable store's background thread writes it every second in bounded transactions;
/// eviction, ``CacheStore/flush()`` and close write all of it. Sets never carry it (that
/// made a set under heavy reads pay for a hundred row updates). When the log is full, reads of entries not yet in it are not recorded (hit
/// counts are then lower bounds), which bounds its memory in read-only workloads.
final class AccessLog: Sendable {
    struct Pending: Sendable {
        var accesses: [Int64: Access] = [:]
        var expired: Set<Int64> = []

        var isEmpty: Bool { accesses.isEmpty && expired.isEmpty }
    }

    struct Access: Sendable {
        var lastAt: Int64
        var hits: Int64

        mutating func record(at now: Int64) {
            hits += 1
            lastAt = max(lastAt, now)
        }
    }

    /// Distinct entries the log holds at most.
    static let capacity = 8192
    /// Records one background transaction writes (a few ms of the writer lock at most).
    static let backgroundSlice = 512

    private let pending = Mutex(Pending())

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

    var isEmpty: Bool { pending.withLock { $0.isEmpty } }

    /// The hits on entry `id` recorded here and not yet written to the file.
    func pendingHits(_ id: Int64) -> Int64 { pending.withLock { $0.accesses[id]?.hits ?? 0 } }

    /// Takes up to `limit` records (all when `nil`), leaving the rest.
    func drain(limit: Int? = nil) -> Pending {
        pending.withLock { pending in
            guard let limit, pending.accesses.count + pending.expired.count > limit else {
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
            return slice
        }
    }

    /// Writes `batch` with `connection` (inside the caller's write transaction), in row order
    /// so neighbouring rows share page writes.
    static func write(_ batch: Pending, to connection: SQLiteConnection, now: Int64) throws {
        for (id, access) in batch.accesses.sorted(by: { $0.key < $1.key }) {
            try connection.recordAccess(id: id, lastAt: access.lastAt, hits: access.hits)
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
                let count = slice.accesses.count + slice.expired.count
                return (count, count, isEmpty)
            },
            committed: { count in
                written += count
                return written < atMost
            })
    }
}
