/// One entry of the memory tier, with what its file row said (if it mirrors one).
///
/// The typed value lives in the ``TypedMemoryEntry`` subclass (the only one), so a typed
/// read recovers it by comparing ``valueType`` with the type it expects. What an entry holds
/// is immutable (replacing a value makes a new entry); only the tier's bookkeeping changes,
/// under its lock.
///
/// Stored properties are laid out in order: those a hit reads come last, next to the
/// subclass's value, so a hit touches as few cache lines as it can.
@usableFromInline class MemoryEntry: @unchecked Sendable {
    let key: String
    let tags: [String]
    let staleUntil: Int64?
    /// Bytes counted against the tier's byte limit.
    let size: Int
    /// The entry's place in its tier's eviction queue; touched only under the tier's lock.
    final var slot = -1
    /// The `Value` of the ``TypedMemoryEntry`` this is.
    @usableFromInline let valueType: ObjectIdentifier
    @usableFromInline let expiresAt: Int64?
    /// When the value was written (the file row's `created_at`): another process's write of
    /// the same key shows up as a different time, and the copy is dropped.
    @usableFromInline let writtenAt: Int64
    /// Whether the entry was read since eviction last passed it (it then gets a second
    /// chance). Touched only under the lock of the ``MemoryTier`` holding the entry.
    @usableFromInline final var referenced = false

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
@usableFromInline final class TypedMemoryEntry<Value: Sendable>: MemoryEntry, @unchecked Sendable {
    @usableFromInline let value: Value

    init(
        _ value: Value, key: String, writtenAt: Int64, expiresAt: Int64?, staleUntil: Int64?, size: Int,
        tags: [String]
    ) {
        self.value = value
        super.init(
            key: key, writtenAt: writtenAt, expiresAt: expiresAt, staleUntil: staleUntil, size: size, tags: tags,
            valueType: ObjectIdentifier(Value.self))
    }
}
