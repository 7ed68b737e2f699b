/// A value held by the memory tier, boxed so a typed read can recover it with one class cast.
protocol MemoryValue: AnyObject, Sendable {}

/// The box around a typed value in memory.
final class ValueBox<Value: Sendable>: MemoryValue {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// One entry of the memory tier, with what its file row said (if it mirrors one).
struct MemoryEntry: Sendable {
    let box: any MemoryValue
    /// When the value was written (the file row's `created_at`): another process's write of
    /// the same key shows up as a different time, and the copy is dropped.
    let writtenAt: Int64
    let expiresAt: Int64?
    let staleUntil: Int64?
    /// Bytes counted against the tier's byte limit.
    let size: Int
    let tags: [String]

    func isExpired(at now: Int64) -> Bool { expiresAt.map { now >= $0 } ?? false }

    /// Past its stale window: no read may return it.
    func isPurgeable(at now: Int64) -> Bool { staleUntil.map { now >= $0 } ?? false }

    /// The value, if it is a `Value` (another handle may have stored another type).
    func value<Value: Sendable>(as type: Value.Type) -> Value? { (box as? ValueBox<Value>)?.value }
}
