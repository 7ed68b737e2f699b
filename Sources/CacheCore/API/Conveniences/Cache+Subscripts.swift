extension Cache {
    /// The live value for `key`; assigning stores a value with the policy's expiry, and
    /// assigning `nil` removes the entry.
    ///
    /// A subscript cannot throw: a failed read is a miss and a failed write is dropped, both
    /// logged through ``StoreOptions/logger``. Use ``get(_:maxAge:)``, ``set(_:for:expiration:tags:)``
    /// and ``remove(_:)`` where the caller must see errors.
    public subscript(key: Key) -> Value? {
        get {
            do {
                return try get(key)
            } catch {
                backend.logFailure("cache subscript read failed; treated as a miss", namespace: namespace, error: error)
                return nil
            }
        }
        nonmutating set {
            do {
                if let newValue {
                    try set(newValue, for: key)
                } else {
                    try remove(key)
                }
            } catch {
                backend.logFailure("cache subscript write failed; nothing stored", namespace: namespace, error: error)
            }
        }
    }

    /// Removes every entry of this namespace; returns how many (``removeAll()``).
    @discardableResult
    public func clear() throws -> Int { try removeAll() }
}

extension CacheStore {
    /// Removes every entry of every namespace (journaled, so other processes drop their memory
    /// copies too). Returns how many entries were removed.
    @discardableResult
    public func clear() throws -> Int { try invalidate(.all).totalRemoved }
}
