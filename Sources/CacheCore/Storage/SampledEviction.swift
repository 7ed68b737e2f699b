import Synchronization

/// Least-recently-used eviction without an access index, as Redis does it ("approximated
/// LRU"): each eviction draws ``samples`` random entries, keeps the oldest-accessed ones seen
/// so far in a pool of ``poolSize`` candidates, and evicts the oldest in the pool. As in
/// Redis, the pool outlives the eviction (see ``EvictionPools``), so the oldest entries met by
/// earlier draws are still candidates later; unlike Redis, a pooled candidate is read again
/// before it is evicted, and one read since it was pooled goes back with its new time.
/// Redis measured this "very close to the theoretical" LRU; `cachedeck-bench hitratio`
/// compares the two on Zipf and scan-polluted traces. Redis draws from a hash table's
/// buckets; here a draw is a random row id accepted only where it is an entry (rejection
/// sampling), so every entry is equally likely however sparse eviction left the ids.
///
/// An entry accessed at or after `fresh` (written or read by the very transaction that
/// evicts) never enters the pool, so a just-written entry is not evicted while older ones
/// exist. When a round of draws finds no candidate, ``next(draw:current:)`` returns `nil` and
/// the caller falls back to the exact order.
package struct SampledEviction {
    /// A drawn entry.
    package struct Candidate: Equatable, Sendable {
        package let id: Int64
        package let namespaceID: Int64
        package let size: Int
        package let accessedAt: Int64

        package init(id: Int64, namespaceID: Int64, size: Int, accessedAt: Int64) {
            self.id = id
            self.namespaceID = namespaceID
            self.size = size
            self.accessedAt = accessedAt
        }
    }

    /// Draws per eviction (Redis's `maxmemory-samples` at the value its docs call close to
    /// true LRU).
    package static let samples = 10
    /// Candidates kept between evictions (Redis's `EVPOOL_SIZE`).
    package static let poolSize = 16
    /// Random ids one draw tries before it falls back to the first entry after one: a draw
    /// is uniform while at least about 1 id in 100 of the table's range is still an entry (it
    /// then misses all 512 with probability < 1%), and costs at most 512 row-id seeks.
    static let triesPerDraw = 512
    /// Namespaces (and stores) of at most this many entries are ranked exactly: sorting them
    /// costs less than the draws would.
    static let exactUpTo = 4096

    /// Oldest access first.
    private(set) var pool: [Candidate]
    /// Ids already returned, never offered again.
    private var taken: Set<Int64> = []
    private let fresh: Int64

    /// Evictions whose candidates were accessed before `fresh`, starting from the candidates
    /// an earlier eviction left in `pool`.
    package init(fresh: Int64, pool: [Candidate] = []) {
        self.fresh = fresh
        self.pool = pool
    }

    /// The next entry to evict: draws ``samples`` entries with `draw` (`nil` when there is
    /// nothing to draw), pools the oldest and takes the oldest of the pool that `current`
    /// (which reads a candidate again, `nil` once it is gone) finds unchanged.
    package mutating func next(draw: () throws -> Candidate?, current: (Candidate) throws -> Candidate?) rethrows
        -> Candidate?
    {
        for _ in 0..<Self.samples {
            guard let candidate = try draw() else { break }
            offer(candidate)
        }
        while !pool.isEmpty {
            let oldest = pool.removeFirst()
            guard let now = try current(oldest) else { continue }
            guard now == oldest else {
                offer(now)
                continue
            }
            taken.insert(oldest.id)
            return oldest
        }
        return nil
    }

    /// Whether `id` was returned by ``next(draw:current:)``.
    func took(_ id: Int64) -> Bool { taken.contains(id) }

    private mutating func offer(_ candidate: Candidate) {
        guard candidate.accessedAt < fresh, !taken.contains(candidate.id),
            !pool.contains(where: { $0.id == candidate.id })
        else { return }
        let index =
            pool.firstIndex { (candidate.accessedAt, candidate.id) < ($0.accessedAt, $0.id) } ?? pool.count
        guard index < Self.poolSize else { return }
        pool.insert(candidate, at: index)
        if pool.count > Self.poolSize { pool.removeLast() }
    }
}

/// The candidate pools sampled eviction keeps between evictions, one per namespace and one
/// for the store-wide limit (`nil`), for the file's writer.
final class EvictionPools: Sendable {
    private let pools = Mutex<[Int64?: [SampledEviction.Candidate]]>([:])

    /// The pool of `namespaceID` (`nil`: the store's), emptied until ``keep(_:for:)``.
    func take(_ namespaceID: Int64?) -> [SampledEviction.Candidate] {
        pools.withLock { $0.removeValue(forKey: namespaceID) ?? [] }
    }

    /// Keeps `pool` for the next eviction of `namespaceID` (`nil`: the store's).
    func keep(_ pool: [SampledEviction.Candidate], for namespaceID: Int64?) {
        pools.withLock { $0[namespaceID] = pool }
    }
}
