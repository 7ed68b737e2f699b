/// What a hit reads of one memory entry, held inline in the values of a dictionary, so a hit
/// reads nothing else that grows with the tier (32 bytes for `Data`). A hit with a `maxAge`
/// also reads the entry's write time, in its ``MemoryEntry``.
@usableFromInline struct MemorySlot<Value> {
    @usableFromInline let value: Value
    /// The entry's place in the tier's eviction queue (and so its bit in the read marks).
    @usableFromInline let position: Int
    /// When the entry expires; `Int64.max` when it does not.
    @usableFromInline let expiresAt: Int64

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
    func remove(_ key: String)
}

/// The slots of the entries of a tier that hold a `Value`.
@usableFromInline final class TypedMemoryValues<Value>: MemoryValues {
    /// Touched only under the tier's lock, which already excludes overlapping accesses: a
    /// hit skips the run-time exclusivity check.
    @exclusivity(unchecked) @usableFromInline var slots: [String: MemorySlot<Value>] = [:]

    init() {}

    @usableFromInline func position(of key: String) -> Int? { slots[key]?.position }

    @usableFromInline func remove(_ key: String) { slots[key] = nil }
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

    /// The slot of `key`; the caller checked that ``valueType`` is `Value`'s.
    @inlinable @inline(__always) func slot<Value>(_ key: String, as type: Value.Type) -> MemorySlot<Value>? {
        // `valueType` is `ObjectIdentifier(V.self)` of the `TypedMemoryValues<V>` held, and the
        // tier keeps it alive while it is listed.
        Unmanaged<TypedMemoryValues<Value>>.fromOpaque(values.toOpaque())._withUnsafeGuaranteedRef { $0.slots[key] }
    }
}
