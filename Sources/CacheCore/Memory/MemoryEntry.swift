/// One entry of the memory tier, with what its file row said (if it mirrors one).
///
/// The typed value lives in the ``TypedMemoryEntry`` subclass (the only one), so a typed
/// read recovers it by comparing ``valueType`` with the type it expects. What an entry holds
/// is immutable (replacing a value makes a new entry); only its place in the tier changes,
/// under the tier's lock. A hit reads none of it: it reads the copy in the tier's
/// ``MemorySlot`` (see ``MemoryTier``).
package class MemoryEntry: @unchecked Sendable {
    let key: String
    let tags: [String]
    let staleUntil: Int64?
    /// Bytes counted against the tier's byte limit.
    let size: Int
    /// The entry's place in its tier's eviction queue; touched only under the tier's lock.
    final var slot = -1
    /// The `Value` of the ``TypedMemoryEntry`` this is.
    let valueType: ObjectIdentifier
    let expiresAt: Int64?
    /// When the value was written (the file row's `created_at`): another process's write of
    /// the same key shows up as a different time, and the copy is dropped.
    let writtenAt: Int64

    fileprivate init(
        key: String, writtenAt: Int64, expiresAt: Int64?, staleUntil: Int64?, size: Int, tags: [String],
        valueType: ObjectIdentifier
    ) {
        self.key = key
        self.tags = tags
        self.staleUntil = staleUntil
        self.size = size
        self.valueType = valueType
        self.expiresAt = expiresAt
        self.writtenAt = writtenAt
    }

    func isExpired(at now: Int64) -> Bool { expiresAt.map { now >= $0 } ?? false }

    /// Past its stale window: no read may return it.
    func isPurgeable(at now: Int64) -> Bool { staleUntil.map { now >= $0 } ?? false }

    /// The value, if it is a `Value` (another handle may have stored another type).
    func value<Value: Sendable>(as type: Value.Type) -> Value? { (self as? TypedMemoryEntry<Value>)?.value }
}

/// A memory entry holding a `Value`.
final class TypedMemoryEntry<Value: Sendable>: MemoryEntry, @unchecked Sendable {
    let value: Value

    init(
        _ value: Value, key: String, writtenAt: Int64, expiresAt: Int64?, staleUntil: Int64?, size: Int,
        tags: [String]
    ) {
        self.value = value
        super.init(
            key: key, writtenAt: writtenAt, expiresAt: expiresAt, staleUntil: staleUntil, size: size, tags: tags,
            valueType: ObjectIdentifier(Value.self))
    }

    /// What a hit reads of this entry, for the entry at `position` of the eviction queue.
    func memorySlot(at position: Int) -> MemorySlot<Value> {
        MemorySlot(value: value, position: position, expiresAt: expiresAt)
    }
}
