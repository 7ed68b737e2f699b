/// What a hit reads and writes of one memory entry, held inline in the values of a
/// dictionary, so a hit touches the dictionary's storage and nothing else that grows with the
/// tier. A hit with a `maxAge` also reads the entry's write time, in its ``MemoryEntry``.
@usableFromInline struct MemorySlot<Value> {
    @usableFromInline let value: Value
    /// The entry's place in the tier's eviction queue (and so its bit in the read marks).
    @usableFromInline let position: Int
    /// When the entry expires, `Int64.max` when it does not.
    @usableFromInline let expiresAt: Int64
    /// Reads not yet taken by the access log (see ``MemoryTier/takeReads()``).
    @usableFromInline var reads: UInt32 = 0

    init(value: Value, position: Int, expiresAt: Int64?) {
        self.value = value
        self.position = position
        self.expiresAt = expiresAt ?? .max
    }
}

/// The entries of one value type in a memory tier, by key (see ``TypedMemoryValues``).
@usableFromInline protocol MemoryValues: AnyObject {
    /// The queue position of `key`'s entry, if it is here.
    func position(of key: String) -> Int?
    /// Removes `key`; returns the reads its entry had not handed over.
    func remove(_ key: String) -> UInt32
    /// Adds a read of `key`; returns whether it is the first since the reads were last taken.
    func addRead(_ key: String) -> Bool
    /// The reads of `key` since they were last taken, now taken.
    func takeReads(_ key: String) -> UInt32
}

/// The slots of the entries of a tier that hold a `Value`.
@usableFromInline final class TypedMemoryValues<Value>: MemoryValues {
    /// Touched only under the tier's lock, which already excludes overlapping accesses: a
    /// hit skips the run-time exclusivity check.
    @exclusivity(unchecked) @usableFromInline var slots: [String: MemorySlot<Value>] = [:]

    init() {}

    @usableFromInline func position(of key: String) -> Int? { slots[key]?.position }

    @usableFromInline func remove(_ key: String) -> UInt32 { slots.removeValue(forKey: key)?.reads ?? 0 }

    @usableFromInline func addRead(_ key: String) -> Bool {
        guard let index = slots.index(forKey: key) else { return false }
        defer { slots.values[index].reads &+= 1 }
        return slots.values[index].reads == 0
    }

    @usableFromInline func takeReads(_ key: String) -> UInt32 {
        guard let index = slots.index(forKey: key) else { return 0 }
        defer { slots.values[index].reads = 0 }
        return slots.values[index].reads
    }
}

/// A tier's ``TypedMemoryValues`` for one value type, not retained (the tier's `maps` hold
/// it), with the type next to it: a hit finds its map and reads it with no call and no
/// reference counting.
@usableFromInline struct MemoryValuesOfType {
    @usableFromInline let valueType: ObjectIdentifier
    @usableFromInline let values: Unmanaged<AnyObject>

    init<Value>(_ values: TypedMemoryValues<Value>) {
        valueType = ObjectIdentifier(Value.self)
        self.values = Unmanaged.passUnretained(values)
    }

    /// Runs `body` on the slots; the caller checked that ``valueType`` is `Value`'s.
    @inlinable @inline(__always) func withSlots<Value, Result>(
        as type: Value.Type, _ body: (inout [String: MemorySlot<Value>]) -> Result
    ) -> Result {
        // `valueType` is `ObjectIdentifier(V.self)` of the `TypedMemoryValues<V>` held, and the
        // tier keeps it alive while it is listed.
        Unmanaged<TypedMemoryValues<Value>>.fromOpaque(values.toOpaque())._withUnsafeGuaranteedRef { body(&$0.slots) }
    }
}
