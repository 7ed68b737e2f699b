import Synchronization

/// A bounded, TTL-aware map from canonical keys to values that evicts roughly the least
/// recently used entries first, safe from many threads.
///
/// A hit is one hash lookup under a lock that only marks the entry as read. Eviction takes
/// entries from the old end of a queue (kept in order of insertion): an unread one leaves,
/// a read one loses its mark and goes back to the new end (second chance, as in CLOCK). So
/// an entry read since eviction last passed it outlives every unread one. Expired entries
/// are kept until their stale window ends (for stale reads) and are dropped when met.
@usableFromInline final class MemoryTier: Sendable {
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
            state.index[key]?._withUnsafeGuaranteedRef { entry in
                guard entry.valueType == ObjectIdentifier(Value.self) else { return nil }
                if entry.expiresAt != nil || maxAge != nil {
                    let now = clock.nowMilliseconds()
                    if let expiresAt = entry.expiresAt, now >= expiresAt { return nil }
                    if let maxAge, now.subtractingClamped(entry.writtenAt) >= maxAge { return nil }
                }
                if !entry.referenced { entry.referenced = true }
                state.countHit()
                return unsafeDowncast(entry, to: TypedMemoryEntry<Value>.self).value
            }
        }
    }

    /// The entry for `key`, marked as read; `nil` when absent or past its stale window.
    func get(_ key: String, now: Int64) -> MemoryEntry? {
        state.withLock { state in
            guard let entry = state.entry(key) else { return nil }
            if entry.isPurgeable(at: now) {
                state.remove(entry)
                return nil
            }
            entry.referenced = true
            return entry
        }
    }

    /// Stores `entry` (replacing any) as the newest, then evicts over the limits (never
    /// `entry` while others can go). Returns how many it evicted.
    @discardableResult
    func set(_ entry: MemoryEntry) -> Int {
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
    func promote(_ entry: MemoryEntry, ifUnchangedSince epoch: UInt64) {
        state.withLock { state in
            guard state.epoch == epoch, state.index[entry.key] == nil else { return }
            _ = state.insert(entry)
        }
    }

    /// Removes `key`; returns whether it was there.
    @discardableResult
    func remove(_ key: String) -> Bool {
        state.withLock { state in
            state.epoch &+= 1
            guard let entry = state.entry(key) else { return false }
            state.remove(entry)
            return true
        }
    }

    /// Removes every entry for which `matches` is true; returns how many.
    @discardableResult
    func removeAll(where matches: (MemoryEntry) -> Bool) -> Int {
        state.withLock { state in
            state.epoch &+= 1
            let doomed = state.index.values.map { $0.takeUnretainedValue() }.filter(matches)
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
        state.withLock { state in state.index.values.count { !$0.takeUnretainedValue().isExpired(at: now) } }
    }

    /// How many entries are held (expired ones included until met).
    var count: Int { state.withLock { $0.index.count } }

    /// The bytes held, as counted against the byte limit.
    var bytes: Int { state.withLock { $0.bytes } }

    /// The keys held, the one eviction would take last first (for tests and inspection):
    /// entries read since eviction last passed them, newest in the queue first, then unread
    /// ones, newest first. Recency as this tier sees it: a read marks an entry, it does not
    /// move it, so two entries read since eviction last ran keep their queue order.
    var keysByRecency: [String] { state.withLock { $0.keysByRecency } }
}

extension MemoryTier {
    /// A place in the eviction queue. Links are slot numbers, not references, so moving an
    /// entry is a few integer stores with no reference counting.
    fileprivate struct Slot {
        var entry: MemoryEntry?
        var newer = -1
        var older = -1
    }

    @usableFromInline struct State {
        var maxEntries: Int
        var maxBytes: Int?
        /// The entries by key, not retained: a hit then costs no reference counting. Every
        /// entry in it is held by its slot, and the two change together.
        @usableFromInline var index: [String: Unmanaged<MemoryEntry>] = [:]
        fileprivate var slots: [Slot] = []
        var freeSlots: [Int] = []
        var newest = -1
        var oldest = -1
        var bytes = 0
        var epoch: UInt64 = 0
        /// Hits counted here, until ``hitCounters`` is set; from then on hits go there.
        @usableFromInline var hits = 0
        @usableFromInline var hitCounters: NamespaceCounters?

        init(maxEntries: Int, maxBytes: Int?) {
            self.maxEntries = maxEntries
            self.maxBytes = maxBytes
        }

        @inlinable mutating func countHit() {
            if let hitCounters { hitCounters.memoryHit() } else { hits &+= 1 }
        }

        func entry(_ key: String) -> MemoryEntry? { index[key]?.takeUnretainedValue() }

        var keysByRecency: [String] {
            var read: [String] = []
            var unread: [String] = []
            var slot = newest
            while slot >= 0 {
                if let entry = slots[slot].entry {
                    if entry.referenced { read.append(entry.key) } else { unread.append(entry.key) }
                }
                slot = slots[slot].older
            }
            return read + unread
        }

        mutating func insert(_ entry: MemoryEntry) -> Int {
            if let old = self.entry(entry.key) {
                bytes += entry.size - old.size
                entry.slot = old.slot
                slots[old.slot].entry = entry
                moveToFront(old.slot)
            } else {
                let slot = freeSlots.popLast() ?? slots.count
                if slot == slots.count { slots.append(Slot()) }
                entry.slot = slot
                slots[slot].entry = entry
                bytes += entry.size
                linkAsNewest(slot)
            }
            index[entry.key] = Unmanaged.passUnretained(entry)
            return evictOverLimits(sparing: entry)
        }

        /// Evicts from the old end until within the limits; a read entry is spared once (it
        /// loses its mark and moves to the new end), and so is `spared` while others remain.
        mutating func evictOverLimits(sparing spared: MemoryEntry?) -> Int {
            var evicted = 0
            while oldest >= 0, index.count > maxEntries || maxBytes.map({ bytes > $0 }) == true {
                guard let entry = slots[oldest].entry else { break }
                if entry.referenced || (entry === spared && index.count > 1) {
                    entry.referenced = false
                    moveToFront(oldest)
                } else {
                    remove(entry)
                    evicted += 1
                }
            }
            return evicted
        }

        mutating func remove(_ entry: MemoryEntry) {
            let slot = entry.slot
            unlink(slot)
            index[entry.key] = nil
            bytes -= entry.size
            slots[slot].entry = nil
            freeSlots.append(slot)
        }

        private mutating func moveToFront(_ slot: Int) {
            guard newest != slot else { return }
            unlink(slot)
            linkAsNewest(slot)
        }

        private mutating func linkAsNewest(_ slot: Int) {
            slots[slot].newer = -1
            slots[slot].older = newest
            if newest >= 0 { slots[newest].newer = slot }
            newest = slot
            if oldest < 0 { oldest = slot }
        }

        private mutating func unlink(_ slot: Int) {
            let newer = slots[slot].newer
            let older = slots[slot].older
            if newer >= 0 { slots[newer].older = older } else { newest = older }
            if older >= 0 { slots[older].newer = newer } else { oldest = newer }
            slots[slot].newer = -1
            slots[slot].older = -1
        }
    }
}
