import Foundation

/// A value returned by a stale read, with whether it had expired and when.
public struct StaleRead<Value>: Sendable where Value: Sendable {
    /// The stored value.
    public let value: Value
    /// `true` when the entry had expired at the time of the read.
    public let isStale: Bool
    /// When the entry expires (or expired); `nil` for never.
    public let expiresAt: Date?
}
