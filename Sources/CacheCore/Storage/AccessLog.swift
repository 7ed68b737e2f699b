import Synchronization

/// Reads recorded in memory and written to the file in batches, so a read is never a write:
/// access times and hit counts for LRU eviction and the console, and expired rows found by
/// reads, to be deleted lazily.
final class AccessLog: Sendable {
    struct Pending: Sendable {
        var accesses: [Int64: Access] = [:]
        var expired: Set<Int64> = []
        var oldest: Int64?

        var isEmpty: Bool { accesses.isEmpty && expired.isEmpty }
        var count: Int { accesses.count + expired.count }
    }

    struct Access: Sendable {
        var lastAt: Int64
        var hits: Int64

        mutating func record(at now: Int64) {
            hits += 1
            lastAt = max(lastAt, now)
        }
    }

    /// Flush on a write once this many records wait or the oldest is this old (ms).
    static let writeFlushCount = 512
    static let writeFlushAge: Int64 = 1000
    /// A read flushes itself only past this many records (amortised; bounds the memory).
    static let readFlushCount = 8192

    private let pending = Mutex(Pending())

    /// Records a hit on entry `id` at `now`; returns `true` when the log is full enough that
    /// the caller should flush.
    func recordHit(_ id: Int64, at now: Int64) -> Bool {
        pending.withLock { pending in
            pending.accesses[id, default: Access(lastAt: now, hits: 0)].record(at: now)
            if pending.oldest == nil { pending.oldest = now }
            return pending.count >= Self.readFlushCount
        }
    }

    /// Records that entry `id` was found past its stale window; it will be deleted if still so.
    func recordExpired(_ id: Int64, at now: Int64) {
        pending.withLock { pending in
            pending.expired.insert(id)
            if pending.oldest == nil { pending.oldest = now }
        }
    }

    /// Whether a write at `now` should carry a flush.
    func wantsFlush(at now: Int64) -> Bool {
        pending.withLock { pending in
            guard let oldest = pending.oldest else { return false }
            return pending.count >= Self.writeFlushCount || now - oldest >= Self.writeFlushAge
        }
    }

    /// Takes everything recorded so far, leaving the log empty.
    func drain() -> Pending {
        pending.withLock { pending in
            defer { pending = Pending() }
            return pending
        }
    }

    /// Writes `batch` with `connection` (inside the caller's write transaction).
    static func write(_ batch: Pending, to connection: SQLiteConnection, now: Int64) throws {
        for (id, access) in batch.accesses {
            try connection.run(
                "UPDATE entries SET accessed_at = max(accessed_at, ?1), hits = hits + ?2 WHERE id = ?3",
                access.lastAt, access.hits, id)
        }
        for id in batch.expired {
            try connection.run("DELETE FROM entries WHERE id = ?1 AND stale_until <= ?2", id, now)
        }
    }
}
