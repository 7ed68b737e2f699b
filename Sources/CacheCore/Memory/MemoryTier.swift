import Synchronization

/// A bounded, TTL-aware, least-recently-used map from canonical keys to values, safe from
/// many threads.
///
/// Entries sit in slots linked most-recent-first, so a hit is one hash lookup and a relink
/// of integer links under a lock. Expired entries are kept until their stale
/// window ends (for stale reads) and are dropped when met.
@usableFromInline final class MemoryTier: Sendable {
    private let state: Mutex<State>

    init(maxEntries: Int, maxBytes: Int?) {
        state = Mutex(State(maxEntries: max(1, maxEntries), maxBytes: maxBytes))
    }

    /// The entry for `key` if it is live at `now`, marked as just used. The hit path of typed
    /// reads: no generics, so nothing is looked up at run time.
    @usableFromInline func liveEntry(_ key: String, now: Int64) -> MemoryEntry? {
        state.withLock { state in
            guard let (slot, entry) = state.entry(key) else { return nil }
            if let expiresAt = entry.expiresAt, now >= expiresAt { return nil }
            state.moveToFront(slot)
            return entry
        }
    }

    /// The entry for `key`, marked as just used; `nil` when absent or past its stale window.
    func get(_ key: String, now: Int64) -> MemoryEntry? {
        state.withLock { state in
            guard let (slot, entry) = state.entry(key) else { return nil }
            if entry.isPurgeable(at: now) {
                state.remove(slot: slot)
                return nil
            }
            state.moveToFront(slot)
            return entry
        }
    }

    /// Stores `entry` (replacing any), then evicts least recently used entries over the
    /// limits. Returns how many it evicted.
    @discardableResult
    func set(_ entry: MemoryEntry) -> Int {
        state.withLock { state in
            state.epoch &+= 1
            return state.insert(entry)
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
            guard let slot = state.index[key] else { return false }
            state.remove(slot: slot)
            return true
        }
    }

    /// Removes every entry for which `matches` is true; returns how many.
    @discardableResult
    func removeAll(where matches: (MemoryEntry) -> Bool) -> Int {
        state.withLock { state in
            state.epoch &+= 1
            let doomed = state.index.values.filter { state.slots[$0].entry.map(matches) == true }
            for slot in doomed { state.remove(slot: slot) }
            return doomed.count
        }
    }

    /// Removes the entry for `key` if it mirrors a write other than the one at `writtenAt`.
    func dropIfReplaced(_ key: String, writtenAt: Int64) -> Bool {
        state.withLock { state in
            guard let (slot, entry) = state.entry(key), entry.writtenAt != writtenAt else { return false }
            state.epoch &+= 1
            state.remove(slot: slot)
            return true
        }
    }

    /// Applies new limits, evicting what no longer fits.
    func setLimits(maxEntries: Int, maxBytes: Int?) {
        state.withLock { state in
            state.maxEntries = max(1, maxEntries)
            state.maxBytes = maxBytes
            _ = state.evictOverLimits()
        }
    }

    /// How many unexpired entries are held.
    func liveCount(at now: Int64) -> Int {
        state.withLock { state in state.entries.count { !$0.isExpired(at: now) } }
    }

    /// How many entries are held (expired ones included until met).
    var count: Int { state.withLock { $0.index.count } }

    /// The bytes held, as counted against the byte limit.
    var bytes: Int { state.withLock { $0.bytes } }

    /// The keys held, most recently used first (for tests and inspection).
    var keysByRecency: [String] { state.withLock { $0.keysByRecency } }
}

extension MemoryTier {
    /// A slot of the recency list. Links are slot numbers, not references, so relinking on a
    /// hit is a few integer stores with no reference counting.
    fileprivate struct Slot {
        var entry: MemoryEntry?
        var newer = -1
        var older = -1
    }

    fileprivate struct State {
        var maxEntries: Int
        var maxBytes: Int?
        var index: [String: Int] = [:]
        var slots: [Slot] = []
        var freeSlots: [Int] = []
        var newest = -1
        var oldest = -1
        var bytes = 0
        var epoch: UInt64 = 0

        func entry(_ key: String) -> (slot: Int, entry: MemoryEntry)? {
            guard let slot = index[key], let entry = slots[slot].entry else { return nil }
            return (slot, entry)
        }

        var entries: [MemoryEntry] { index.values.compactMap { slots[$0].entry } }

        var keysByRecency: [String] {
            var keys: [String] = []
            var slot = newest
            while slot >= 0 {
                if let entry = slots[slot].entry { keys.append(entry.key) }
                slot = slots[slot].older
            }
            return keys
        }

        mutating func insert(_ entry: MemoryEntry) -> Int {
            if let slot = index[entry.key] {
                bytes += entry.size - (slots[slot].entry?.size ?? 0)
                slots[slot].entry = entry
                moveToFront(slot)
            } else {
                let slot = freeSlots.popLast() ?? slots.count
                if slot == slots.count { slots.append(Slot()) }
                slots[slot].entry = entry
                index[entry.key] = slot
                bytes += entry.size
                linkAsNewest(slot)
            }
            return evictOverLimits()
        }

        mutating func evictOverLimits() -> Int {
            var evicted = 0
            while oldest >= 0, index.count > maxEntries || maxBytes.map({ bytes > $0 }) == true {
                remove(slot: oldest)
                evicted += 1
            }
            return evicted
        }

        mutating func remove(slot: Int) {
            unlink(slot)
            if let entry = slots[slot].entry {
                index[entry.key] = nil
                bytes -= entry.size
            }
            slots[slot].entry = nil
            freeSlots.append(slot)
        }

        mutating func moveToFront(_ slot: Int) {
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
