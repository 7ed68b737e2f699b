import Synchronization

/// A bounded, TTL-aware, least-recently-used map from canonical keys to values, safe from
/// many threads.
///
/// Entries live in a slot array linked most-recent-first, so a hit is one hash lookup and
/// two link updates under a lock. Expired entries are kept until their stale window ends
/// (for stale reads) and are dropped when met.
final class MemoryTier: Sendable {
    private let state: Mutex<State>

    init(maxEntries: Int, maxBytes: Int?) {
        state = Mutex(State(maxEntries: max(1, maxEntries), maxBytes: maxBytes))
    }

    /// The entry for `key`, marked as just used; `nil` when absent or past its stale window.
    func get(_ key: String, now: Int64) -> MemoryEntry? {
        state.withLock { state in
            guard let slot = state.index[key] else { return nil }
            let entry = state.slots[slot].entry
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
    func set(_ key: String, _ entry: MemoryEntry) -> Int {
        state.withLock { state in
            state.epoch &+= 1
            return state.insert(key, entry)
        }
    }

    /// A number that changes with every write and removal; see ``promote(_:_:ifUnchangedSince:)``.
    var epoch: UInt64 { state.withLock { $0.epoch } }

    /// Stores a copy read from the file unless a write or removal happened since `epoch`
    /// was read (the copy might then be older than what was written).
    func promote(_ key: String, _ entry: MemoryEntry, ifUnchangedSince epoch: UInt64) {
        state.withLock { state in
            guard state.epoch == epoch, state.index[key] == nil else { return }
            _ = state.insert(key, entry)
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
    func removeAll(where matches: (String, MemoryEntry) -> Bool) -> Int {
        state.withLock { state in
            state.epoch &+= 1
            let doomed = state.index.filter { matches($0.key, state.slots[$0.value].entry) }
            for slot in doomed.values { state.remove(slot: slot) }
            return doomed.count
        }
    }

    /// Removes the entry for `key` if it mirrors a write other than the one at `writtenAt`.
    func dropIfReplaced(_ key: String, writtenAt: Int64) -> Bool {
        state.withLock { state in
            guard let slot = state.index[key], state.slots[slot].entry.writtenAt != writtenAt else { return false }
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
        state.withLock { state in state.index.values.count { !state.slots[$0].entry.isExpired(at: now) } }
    }

    /// How many entries are held (expired ones included until met).
    var count: Int { state.withLock { $0.index.count } }

    /// The bytes held, as counted against the byte limit.
    var bytes: Int { state.withLock { $0.bytes } }

    /// The keys held, least recently used last (for tests and inspection).
    var keysByRecency: [String] {
        state.withLock { state in
            var keys: [String] = []
            var slot = state.head
            while slot >= 0 {
                keys.append(state.slots[slot].key)
                slot = state.slots[slot].next
            }
            return keys
        }
    }
}

extension MemoryTier {
    fileprivate struct Slot {
        var key: String
        var entry: MemoryEntry
        var previous: Int
        var next: Int
    }

    fileprivate struct State {
        var maxEntries: Int
        var maxBytes: Int?
        var index: [String: Int] = [:]
        var slots: [Slot] = []
        var freeSlots: [Int] = []
        var head = -1
        var tail = -1
        var bytes = 0
        var epoch: UInt64 = 0

        mutating func insert(_ key: String, _ entry: MemoryEntry) -> Int {
            if let slot = index[key] {
                bytes += entry.size - slots[slot].entry.size
                slots[slot].entry = entry
                moveToFront(slot)
            } else {
                let slot: Int
                if let free = freeSlots.popLast() {
                    slot = free
                    slots[slot] = Slot(key: key, entry: entry, previous: -1, next: -1)
                } else {
                    slot = slots.count
                    slots.append(Slot(key: key, entry: entry, previous: -1, next: -1))
                }
                index[key] = slot
                bytes += entry.size
                linkAtFront(slot)
            }
            return evictOverLimits()
        }

        mutating func evictOverLimits() -> Int {
            var evicted = 0
            while tail >= 0, index.count > maxEntries || maxBytes.map({ bytes > $0 }) == true {
                remove(slot: tail)
                evicted += 1
            }
            return evicted
        }

        mutating func remove(slot: Int) {
            unlink(slot)
            index[slots[slot].key] = nil
            bytes -= slots[slot].entry.size
            slots[slot].key = ""
            slots[slot].entry = MemoryEntry(
                box: Tombstone.shared, writtenAt: 0, expiresAt: nil, staleUntil: nil, size: 0, tags: [])
            freeSlots.append(slot)
        }

        mutating func moveToFront(_ slot: Int) {
            guard head != slot else { return }
            unlink(slot)
            linkAtFront(slot)
        }

        private mutating func linkAtFront(_ slot: Int) {
            slots[slot].previous = -1
            slots[slot].next = head
            if head >= 0 { slots[head].previous = slot }
            head = slot
            if tail < 0 { tail = slot }
        }

        private mutating func unlink(_ slot: Int) {
            let previous = slots[slot].previous
            let next = slots[slot].next
            if previous >= 0 { slots[previous].next = next } else { head = next }
            if next >= 0 { slots[next].previous = previous } else { tail = previous }
            slots[slot].previous = -1
            slots[slot].next = -1
        }
    }

    /// What a freed slot holds, so it keeps no value alive.
    private final class Tombstone: MemoryValue {
        static let shared = Tombstone()
    }
}
