/// One entry of the memory tier, with what its file row said (if it mirrors one).
///
/// The typed value lives in the ``TypedMemoryEntry`` subclass, so a typed read recovers it
/// with one class cast. Entries are immutable; replacing a value makes a new entry.
@usableFromInline class MemoryEntry: @unchecked Sendable {
    let key: String
    /// When the value was written (the file row's `created_at`): another process's write of
    /// the same key shows up as a different time, and the copy is dropped.
    @usableFromInline let writtenAt: Int64
    @usableFromInline let expiresAt: Int64?
    let staleUntil: Int64?
    /// Bytes counted against the tier's byte limit.
    let size: Int
    let tags: [String]
    init(key: String, writtenAt: Int64, expiresAt: Int64?, staleUntil: Int64?, size: Int, tags: [String]) {
        self.key = key
        self.writtenAt = writtenAt
        self.expiresAt = expiresAt
        self.staleUntil = staleUntil
        self.size = size
        self.tags = tags
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
            key: key, writtenAt: writtenAt, expiresAt: expiresAt, staleUntil: staleUntil, size: size, tags: tags)
    }
}
