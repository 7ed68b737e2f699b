import Foundation

/// When an entry expires. An entry is expired once `now >= expiresAt`.
public enum Expiration: Sendable, Hashable, Codable {
    /// The entry never expires (it may still be evicted by size limits).
    case never
    /// The entry expires this long after it was written (millisecond precision).
    case after(Duration)
    /// The entry expires at this moment (millisecond precision).
    case at(Date)

    /// The absolute expiry in milliseconds for an entry written at `now`, or `nil` for never.
    func expiresAt(now: Int64) -> Int64? {
        switch self {
        case .never: nil
        case .after(let duration): now + duration.milliseconds
        case .at(let date): date.millisecondsSince1970
        }
    }
}

extension Expiration: CustomStringConvertible {
    /// `never`, `after 3600000ms` or `at 2026-11-21T20:00:00Z`.
    public var description: String {
        switch self {
        case .never: "never"
        case .after(let duration): "after \(duration.milliseconds)ms"
        case .at(let date): "at \(date.formatted(.iso8601))"
        }
    }
}
