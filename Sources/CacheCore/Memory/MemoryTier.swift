import Synchronization

/// A bounded, TTL-aware map from canonical keys to values that evicts roughly the least
/// recently used entries first, safe from many threads.
///
/// A hit is one hash lookup under a lock that only marks the entry as read: what it reads
/// (value, queue position, expiry) sits inline in the values of a dictionary of the entry's
/// value type (a ``MemorySlot``); the read marks are a bit array small enough to stay in the
/// CPU caches, and the read is appended to a short log that is added up into per-entry read
/// counts a few thousand at a time (see ``State/logRead(_:)``). The entries themselves
/// (``MemoryEntry``, with what eviction, invalidation and stale reads need) hang off the
/// eviction queue. Eviction takes
/// entries from the old end of a queue (kept in order of insertion): an unread one leaves,
/// a read one loses its mark and goes back to the new end (second chance, as in CLOCK). So
/// an entry read since eviction last passed it outlives every unread one. Expired entries
/// are kept until their stale window ends (for stale reads) and are dropped when met.
@usableFromInline package final class MemoryTier: Sendable {
    @usableFromInline let state: Mutex<State>

    init(maxEntries: Int, maxBytes: Int?) {
        state = Mutex(State(maxEntries: max(1, maxEntries), maxBytes: maxBytes))
    }

    /// The value for `key` if it is a live `Value`: unexpired and, with `maxAge` (in
    /// milliseconds), written less than `maxAge` ago; marks it as read. Reads `clock` only
    /// when the entry expires or `maxAge` is given, and counts the hit inside the lock (see
    /// ``NamespaceCounters/addUp(_:)``). The hit path of typed reads, inlined into the caller
    /// and specialized for `Value`.
    @inlinable func hit<Value: Sendable>(_ key: String, as type: Value.Type, maxAge: Int64?, clock: any CacheClock)
        -> Value?
    {
        state.withLock { state in
            guard let slot = state.slot(key, as: Value.self) else { return nil }
            if slot.expiresAt != .max || maxAge != nil {
                let now = clock.nowMilliseconds()
                if now >= slot.expiresAt { return nil }
                if let maxAge {
                    guard let writtenAt = state.writtenAt(slot.position), now.subtractingClamped(writtenAt) < maxAge
                    else { return nil }
                }
            }
            state.markRead(slot.position)
            state.logRead(slot.position)
            state.countHit()
            return slot.value
        }
    }

    /// The entry for `key`, marked as read (and, when `counting`, added to the read buffer);
    /// `nil` when absent or past its stale window.
    func get(_ key: String, now: Int64, counting: Bool = false) -> MemoryEntry? {
        state.withLock { state in
            guard let entry = state.entry(key) else { return nil }
            if entry.isPurgeable(at: now) {
                state.remove(entry)
                return nil
            }
            state.markRead(entry.slot)
            if counting { state.logRead(entry.slot) }
            return entry
        }
    }

    /// The entries read since the last call, with their reads (``hit(_:as:maxAge:clock:)``
    /// and counted ``get(_:now:counting:)`` add to them): the access log takes them to the
    /// file's hits and access times. Reads of entries removed meanwhile are included, up to
    /// ``AccessLog/capacity`` of them.
    func takeReads() -> [(key: String, hits: Int64)] { state.withLock { $0.takeReads() } }

    /// Stores `entry` (replacing any) as the newest, then evicts over the limits (never
    /// `entry` while others can go). Returns how many it evicted.
    @discardableResult
    func set<Value>(_ entry: TypedMemoryEntry<Value>) -> Int {
        state.withLock { state in
            state.epoch &+= 1
            return state.insert(entry)
        }
    }

    /// Hits counted by ``hit(_:as:maxAge:clock:)`` that no counters have taken over.
    var hits: Int { state.withLock { $0.hits } }

    /// Takes the hits counted so far (the caller adds them to `counters`) and sends later
    /// ones to `counters` directly.
    func handOverHits(to counters: NamespaceCounters) -> Int {
        state.withLock { state in
            defer { state.hits = 0 }
            state.hitCounters = counters
            return state.hits
        }
    }

    /// A number that changes with every write and removal; see ``promote(_:ifUnchangedSince:)``.
    var epoch: UInt64 { state.withLock { $0.epoch } }

    /// Stores a copy read from the file unless a write or removal happened since `epoch`
    /// was read (the copy might then be older than what was written).
    func promote<Value>(_ entry: TypedMemoryEntry<Value>, ifUnchangedSince epoch: UInt64) {
        state.withLock { state in
            guard state.epoch == epoch, state.entry(entry.key) == nil else { return }
            _ = state.insert(entry)
        }
    }

    /// Removes `key`; returns whether it was there.
    @discardableResult
    package func remove(_ key: String) -> Bool {
        state.withLock { state in
            state.epoch &+= 1
            guard let entry = state.entry(key) else { return false }
            state.remove(entry)
            return true
        }
    }

    /// Removes every entry for which `matches` is true; returns how many.
    @discardableResult
    package func removeAll(where matches: (MemoryEntry) -> Bool) -> Int {
        state.withLock { state in
            state.epoch &+= 1
            let doomed = state.entries.filter(matches)
            for entry in doomed { state.remove(entry) }
            return doomed.count
        }
    }

    /// Removes the entry for `key` if it mirrors a write other than the one at `writtenAt`.
    func dropIfReplaced(_ key: String, writtenAt: Int64) -> Bool {
        state.withLock { state in
            guard let entry = state.entry(key), entry.writtenAt != writtenAt else { return false }
            state.epoch &+= 1
            state.remove(entry)
            return true
        }
    }

    /// Applies new limits, evicting what no longer fits.
    func setLimits(maxEntries: Int, maxBytes: Int?) {
        state.withLock { state in
            state.maxEntries = max(1, maxEntries)
            state.maxBytes = maxBytes
            _ = state.evictOverLimits(sparing: nil)
        }
    }

    /// How many unexpired entries are held.
    func liveCount(at now: Int64) -> Int {
        state.withLock { state in state.queue.count { $0.entry.map { !$0.isExpired(at: now) } ?? false } }
    }

    /// How many entries are held (expired ones included until met).
    var count: Int { state.withLock { $0.count } }

    /// The bytes held, as counted against the byte limit.
    var bytes: Int { state.withLock { $0.bytes } }

    /// The keys held, the one eviction would take last first (for tests and inspection):
    /// entries read since eviction last passed them, newest in the queue first, then unread
    /// ones, newest first. Recency as this tier sees it: a read marks an entry, it does not
    /// move it, so two entries read since eviction last ran keep their queue order.
    var keysByRecency: [String] { state.withLock { $0.keysByRecency } }
}
