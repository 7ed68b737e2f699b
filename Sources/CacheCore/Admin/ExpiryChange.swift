/// How an expiry action changes when the entries it selects expire. Each entry keeps the
/// length of its stale window; the old times are kept for ``Admin/restore(_:origin:)``.
public enum ExpiryChange: Sendable, Hashable, Codable {
    /// Expire now: reads miss from now on, stale reads too, and sweeps remove the entries.
    case expireNow
    /// Expire this long from now (`nil`: never).
    case set(milliseconds: Int64?)
    /// Expire this much later (earlier when negative); entries that never expire keep never.
    case extend(milliseconds: Int64)

    /// The new `expires_at` and `stale_until` as SQL on a row of `entries`, with `?1` the
    /// current time and `?2` the change's milliseconds.
    var assignments: String {
        switch self {
        case .expireNow:
            "expires_at = ?1, stale_until = ?1"
        case .set(nil):
            "expires_at = NULL, stale_until = NULL"
        case .set:
            """
            stale_until = CASE WHEN expires_at IS NULL OR stale_until IS NULL THEN ?1 + ?2
                               ELSE ?1 + ?2 + (stale_until - expires_at) END,
            expires_at = ?1 + ?2
            """
        case .extend:
            "expires_at = expires_at + ?2, stale_until = stale_until + ?2"
        }
    }

    /// The milliseconds bound to `?2`.
    var milliseconds: Int64 {
        switch self {
        case .expireNow, .set(nil): 0
        case .set(let milliseconds?), .extend(let milliseconds): milliseconds
        }
    }
}

extension ExpiryChange: CustomStringConvertible {
    /// `expire now`, `set TTL 1h`, `set TTL never`, `extend TTL by 30m`.
    public var description: String {
        switch self {
        case .expireNow: "expire now"
        case .set(nil): "set TTL never"
        case .set(let milliseconds?): "set TTL \(Self.text(milliseconds))"
        case .extend(let milliseconds): "extend TTL by \(Self.text(milliseconds))"
        }
    }

    /// `90s`, `30m`, `2h`, `7d`, `1500ms`: the largest unit that divides it exactly.
    static func text(_ milliseconds: Int64) -> String {
        for (unit, size) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
        where milliseconds != 0 && milliseconds % size == 0 {
            return "\(milliseconds / size)\(unit)"
        }
        return "\(milliseconds)ms"
    }
}
