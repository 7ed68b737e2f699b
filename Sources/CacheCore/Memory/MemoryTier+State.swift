extension MemoryTier {
    /// A place in the eviction queue. Links are slot numbers, not references, so moving an
    /// entry is a few integer stores with no reference counting.
    struct QueueSlot {
        var entry: MemoryEntry?
        var newer = -1
        var older = -1
    }

    @usableFromInline struct State {
        var maxEntries: Int
        var maxBytes: Int?
        /// The slots of the entries, one map per value type stored (normally one); a key is
        /// in at most one. Each map holds the slots of exactly the queue's entries of its type.
        /// Maps are never dropped, so the unretained copies below stay valid.
        var maps: [(valueType: ObjectIdentifier, values: any MemoryValues)] = []
        /// The first of ``maps`` and the others, unretained, for hits.
        @usableFromInline var firstMap: MemoryValuesOfType?
        @usableFromInline var laterMaps: [MemoryValuesOfType] = []
        /// The entries, in eviction order through their links.
        var queue: [QueueSlot] = []
        /// Bit `p` says whether the entry at queue slot `p` was read since eviction last
        /// passed it (it then gets a second chance).
        @usableFromInline var marks: [UInt64] = []
        /// The queue slots read since ``reads`` last took them, in order: a hit appends to
        /// the end, which stays in the CPU caches, where adding to ``reads`` would miss them
        /// once the tier holds more than a few thousand entries.
        @usableFromInline var readLog: [Int] = []
        /// The reads of the entry at each queue slot not yet taken by ``takeReads()``: the
        /// read buffer the access log carries to the file's hits. Holds every read once
        /// ``drainReadLog()`` ran.
        var reads: [UInt32] = []
        /// Reads of entries removed before their reads were taken.
        var departedReads: [(key: String, hits: Int64)] = []
        var freeSlots: [Int] = []
        var newest = -1
        var oldest = -1
        /// How many entries are held.
        var count = 0
        var bytes = 0
        var epoch: UInt64 = 0
        /// Hits counted here, until ``hitCounters`` is set; from then on hits go there.
        @usableFromInline var hits = 0
        @usableFromInline var hitCounters: NamespaceCounters?

        init(maxEntries: Int, maxBytes: Int?) {
            self.maxEntries = maxEntries
            self.maxBytes = maxBytes
        }

        /// The slot of `key` if it holds a `Value`.
        @inlinable @inline(__always) func slot<Value>(_ key: String, as type: Value.Type) -> MemorySlot<Value>? {
            let valueType = ObjectIdentifier(Value.self)
            if let map = firstMap, map.valueType == valueType { return map.slot(key, as: Value.self) }
            for map in laterMaps where map.valueType == valueType { return map.slot(key, as: Value.self) }
            return nil
        }

        /// Marks the entry at `position` as read (writing only when it was not, which spares
        /// the copy-on-write check).
        @inlinable @inline(__always) mutating func markRead(_ position: Int) {
            let bit: UInt64 = 1 &<< UInt64(position & 63)
            if marks[position &>> 6] & bit == 0 { marks[position &>> 6] |= bit }
        }

        /// When the entry at `position` was written.
        @usableFromInline func writtenAt(_ position: Int) -> Int64? { queue[position].entry?.writtenAt }

        /// Adds a read of the entry at `position` to the read buffer.
        @inlinable @inline(__always) mutating func logRead(_ position: Int) {
            readLog.append(position)
            if readLog.count >= 4096 { drainReadLog() }
        }

        /// Adds the logged reads to ``reads``, a few thousand independent increments the CPU
        /// overlaps; runs before anything reads ``reads`` or gives a slot to another entry.
        @usableFromInline mutating func drainReadLog() {
            for position in readLog { reads[position] &+= 1 }
            readLog.removeAll(keepingCapacity: true)
        }

        /// Takes the read buffer: each entry read since the last call with its reads.
        mutating func takeReads() -> [(key: String, hits: Int64)] {
            drainReadLog()
            var taken = departedReads
            departedReads = []
            for position in reads.indices where reads[position] != 0 {
                if let entry = queue[position].entry { taken.append((entry.key, Int64(reads[position]))) }
                reads[position] = 0
            }
            return taken
        }

        @inlinable @inline(__always) mutating func countHit() {
            if let hitCounters { hitCounters.memoryHit() } else { hits &+= 1 }
        }

        func isMarked(_ position: Int) -> Bool { marks[position &>> 6] & (1 &<< UInt64(position & 63)) != 0 }

        mutating func unmark(_ position: Int) { marks[position &>> 6] &= ~(1 &<< UInt64(position & 63)) }

        func entry(_ key: String) -> MemoryEntry? {
            for map in maps {
                if let position = map.values.position(of: key) { return queue[position].entry }
            }
            return nil
        }

        /// Every entry held, in no particular order.
        var entries: [MemoryEntry] { queue.compactMap(\.entry) }

        var keysByRecency: [String] {
            var read: [String] = []
            var unread: [String] = []
            var slot = newest
            while slot >= 0 {
                if let entry = queue[slot].entry {
                    if isMarked(slot) { read.append(entry.key) } else { unread.append(entry.key) }
                }
                slot = queue[slot].older
            }
            return read + unread
        }

        mutating func insert<Value>(_ entry: TypedMemoryEntry<Value>) -> Int {
            if let old = self.entry(entry.key) {
                bytes += entry.size - old.size
                entry.slot = old.slot
                queue[old.slot].entry = entry
                if old.valueType != entry.valueType { map(of: old.valueType)?.remove(old.key) }
                moveToFront(old.slot)
            } else {
                let slot = freeSlots.popLast() ?? queue.count
                if slot == queue.count {
                    queue.append(QueueSlot())
                    reads.append(0)
                    if slot & 63 == 0 { marks.append(0) }
                }
                entry.slot = slot
                queue[slot].entry = entry
                bytes += entry.size
                count += 1
                linkAsNewest(slot)
            }
            unmark(entry.slot)
            typedValues(of: Value.self).slots[entry.key] = entry.memorySlot(at: entry.slot)
            return evictOverLimits(sparing: entry)
        }

        /// Evicts from the old end until within the limits; a read entry is spared once (it
        /// loses its mark and moves to the new end), and so is `spared` while others remain.
        mutating func evictOverLimits(sparing spared: MemoryEntry?) -> Int {
            var evicted = 0
            while oldest >= 0, count > maxEntries || maxBytes.map({ bytes > $0 }) == true {
                guard let entry = queue[oldest].entry else { break }
                if isMarked(oldest) || (entry === spared && count > 1) {
                    unmark(oldest)
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
            if !readLog.isEmpty { drainReadLog() }
            if reads[slot] != 0 {
                if departedReads.count < AccessLog.capacity { departedReads.append((entry.key, Int64(reads[slot]))) }
                reads[slot] = 0
            }
            unlink(slot)
            map(of: entry.valueType)?.remove(entry.key)
            bytes -= entry.size
            count -= 1
            queue[slot].entry = nil
            unmark(slot)
            freeSlots.append(slot)
        }

        private func map(of valueType: ObjectIdentifier) -> (any MemoryValues)? {
            maps.first { $0.valueType == valueType }?.values
        }

        /// The slots of the entries holding a `Value`, made on the first one.
        private mutating func typedValues<Value>(of type: Value.Type) -> TypedMemoryValues<Value> {
            for map in maps where map.valueType == ObjectIdentifier(Value.self) {
                // `maps` pairs each `TypedMemoryValues<V>` with `ObjectIdentifier(V.self)`.
                return unsafeDowncast(map.values, to: TypedMemoryValues<Value>.self)
            }
            let made = TypedMemoryValues<Value>()
            maps.append((ObjectIdentifier(Value.self), made))
            if firstMap == nil {
                firstMap = MemoryValuesOfType(made)
            } else {
                laterMaps.append(MemoryValuesOfType(made))
            }
            return made
        }

        private mutating func moveToFront(_ slot: Int) {
            guard newest != slot else { return }
            unlink(slot)
            linkAsNewest(slot)
        }

        private mutating func linkAsNewest(_ slot: Int) {
            queue[slot].newer = -1
            queue[slot].older = newest
            if newest >= 0 { queue[newest].newer = slot }
            newest = slot
            if oldest < 0 { oldest = slot }
        }

        private mutating func unlink(_ slot: Int) {
            let newer = queue[slot].newer
            let older = queue[slot].older
            if newer >= 0 { queue[newer].older = older } else { newest = older }
            if older >= 0 { queue[older].newer = newer } else { oldest = newer }
            queue[slot].newer = -1
            queue[slot].older = -1
        }
    }
}
