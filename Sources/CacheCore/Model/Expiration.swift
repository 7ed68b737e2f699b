import Foundation

/// When an entry expires. An entry is expired once `now >= expiresAt`.
public enum Expiration: Sendable, Hashable {
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

extension Expiration: Codable {
    private enum CodingKeys: String, CodingKey {
        case afterMilliseconds, atMilliseconds
    }

    /// Decodes `{}` (never), `{"afterMilliseconds": n}` or `{"atMilliseconds": n}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let after = try container.decodeIfPresent(Int64.self, forKey: .afterMilliseconds) {
            self = .after(.milliseconds(after))
        } else if let at = try container.decodeIfPresent(Int64.self, forKey: .atMilliseconds) {
            self = .at(Date(millisecondsSince1970: at))
        } else {
            self = .never
        }
    }

    /// Encodes as stable integer milliseconds, readable by any tool.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .never: break
        case .after(let duration): try container.encode(duration.milliseconds, forKey: .afterMilliseconds)
        case .at(let date): try container.encode(date.millisecondsSince1970, forKey: .atMilliseconds)
        }
    }
}
