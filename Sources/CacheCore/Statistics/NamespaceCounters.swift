import Synchronization

/// The live counters of one namespace in one store: relaxed atomic adds, so recording costs
/// a few nanoseconds, never a lock, a hash or a write to the file. Hits on the memory tier's
/// fast path cost even less: the tier counts them inside the lock it takes anyway, and the
/// counters add its count up (``addUp(_:)``).
///
/// A handle gets its namespace's counters once, when it is made; every handle on the same
/// namespace of a store shares them. The counters only grow: a reset moves a baseline that
/// ``statistics()`` subtracts, so telemetry and swift-metrics, which report growth, never
/// see one.
///
/// A store with statistics off hands out disabled counters, which record nothing.
@usableFromInline package final class NamespaceCounters: Sendable {
    @usableFromInline let isEnabled: Bool
    private let baseline = Mutex(CacheStatistics.zero)
    /// The memory tiers whose own hit counts belong to ``memoryHits``.
    private let tiers = Mutex<[MemoryTier]>([])

    @usableFromInline let memoryHits = Atomic<Int>(0)
    private let diskHits = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)
    private let staleHits = Atomic<Int>(0)
    private let sets = Atomic<Int>(0)
    private let removes = Atomic<Int>(0)
    private let evictions = Atomic<Int>(0)
    private let evictedBytes = Atomic<Int>(0)
    private let expirations = Atomic<Int>(0)
    private let invalidations = Atomic<Int>(0)
    private let loadSuccesses = Atomic<Int>(0)
    private let loadFailures = Atomic<Int>(0)
    private let loadNanoseconds = Atomic<Int>(0)

    init(isEnabled: Bool = true) {
        self.isEnabled = isEnabled
    }

    // MARK: Reads

    /// A read served from the in-memory tier.
    @inlinable func memoryHit() {
        if isEnabled { memoryHits.wrappingAdd(1, ordering: .relaxed) }
    }

    /// Counts `tier`'s hits (see ``MemoryTier/hit(_:as:maxAge:clock:)``) as memory hits.
    func addUp(_ tier: MemoryTier) {
        if isEnabled { tiers.withLock { $0.append(tier) } }
    }

    /// Stops adding up `tier`'s count (it was replaced): its hits so far join the memory
    /// hits, and later ones are recorded here one by one.
    func retire(_ tier: MemoryTier) {
        tiers.withLock { tiers in
            tiers.removeAll { $0 === tier }
            add(memoryHits, tier.handOverHits(to: self))
        }
    }

    /// A read served from the file.
    func diskHit() { add(diskHits, 1) }

    /// A read that found no live value.
    func miss() { add(misses, 1) }

    /// A read served an expired value because the caller asked for stale data (counted
    /// instead of a miss, not as well).
    func staleHit() { add(staleHits, 1) }

    /// A read served from the file; a stale hit when the value had expired (the caller
    /// asked for stale data).
    func diskHit(stale: Bool) {
        if stale { staleHit() } else { diskHit() }
    }

    // MARK: Writes and removals

    /// `count` values written.
    func stored(count: Int = 1) { add(sets, count) }

    /// Counts one removal by the app if `removed`, and passes `removed` through.
    @discardableResult
    func removed(_ removed: Bool) -> Bool {
        if removed { add(removes, 1) }
        return removed
    }

    /// Counts `count` removals by the app, and passes `count` through.
    @discardableResult
    func removed(count: Int) -> Int {
        add(removes, count)
        return count
    }

    /// `count` live entries of `bytes` in total evicted for size limits.
    func evicted(count: Int, bytes: Int) {
        add(evictions, count)
        add(evictedBytes, bytes)
    }

    /// `count` expired entries removed (by a sweep or by eviction).
    func expired(count: Int) { add(expirations, count) }

    /// `count` entries dropped by invalidation.
    func invalidated(count: Int) { add(invalidations, count) }

    // MARK: Loaders

    /// A loader call that produced a value after `milliseconds`.
    func loadSucceeded(milliseconds: Double) {
        add(loadSuccesses, 1)
        add(loadNanoseconds, Self.nanoseconds(milliseconds))
    }

    /// A loader call that failed after `milliseconds`.
    func loadFailed(milliseconds: Double) {
        add(loadFailures, 1)
        add(loadNanoseconds, Self.nanoseconds(milliseconds))
    }

    // MARK: Snapshots

    /// The counts since the store opened or the last ``reset()``.
    func statistics() -> CacheStatistics {
        snapshot() - baseline.withLock { $0 }
    }

    /// Makes the current counts the zero of ``statistics()``.
    func reset() {
        let now = snapshot()
        baseline.withLock { $0 = now }
    }

    /// The counts since the store opened (never reset) (each field read atomically; fields may be a few operations apart
    /// while other threads record).
    func snapshot() -> CacheStatistics {
        CacheStatistics(
            memoryHits: tiers.withLock { tiers in
                tiers.reduce(memoryHits.load(ordering: .relaxed)) { $0 &+ $1.hits }
            },
            diskHits: diskHits.load(ordering: .relaxed),
            misses: misses.load(ordering: .relaxed), staleHits: staleHits.load(ordering: .relaxed),
            sets: sets.load(ordering: .relaxed), removes: removes.load(ordering: .relaxed),
            evictions: evictions.load(ordering: .relaxed), evictedBytes: evictedBytes.load(ordering: .relaxed),
            expirations: expirations.load(ordering: .relaxed), invalidations: invalidations.load(ordering: .relaxed),
            loadSuccesses: loadSuccesses.load(ordering: .relaxed),
            loadFailures: loadFailures.load(ordering: .relaxed),
            totalLoadTime: .nanoseconds(loadNanoseconds.load(ordering: .relaxed)))
    }

    private func add(_ counter: borrowing Atomic<Int>, _ amount: Int) {
        if isEnabled { counter.wrappingAdd(amount, ordering: .relaxed) }
    }

    private static func nanoseconds(_ milliseconds: Double) -> Int {
        guard milliseconds.isFinite, milliseconds > 0 else { return 0 }
        return Int(min(milliseconds * 1_000_000, 1e15).rounded())
    }
}
