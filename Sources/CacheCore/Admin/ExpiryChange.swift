/// How an expiry action changes when the entries it selects expire. Each entry keeps the
/// length of its stale window; the old times are kept for ``Admin/restore(_:origin:)``.
public enum ExpiryChange: Sendable, Hashable, Codable {
    /// Expire now: reads miss from now on; stale reads still answer for each entry's stale
    /// window (its length kept), after which sweeps remove the entries.
    case expireNow
    /// Expire this long from now (`nil`: never).
    case set(milliseconds: Int64?)
    /// Expire this much later (earlier when negative); entries that never expire keep never.
    case extend(milliseconds: Int64)

    /// Parses `now`, `never`, a TTL (`90s`, `1h`, `7d`) or an extension (`+30m`, `-5m`).
    ///
    /// - Throws: ``EntryFilterError`` naming the text and the units.
    public init(parsing text: String) throws(EntryFilterError) {
        switch text.lowercased() {
        case "now": self = .expireNow
        case "never": self = .set(milliseconds: nil)
        default:
            if text.hasPrefix("+") || text.hasPrefix("-") {
                let milliseconds = try FilterNumber.duration(String(text.dropFirst()))
                self = .extend(milliseconds: text.hasPrefix("-") ? -milliseconds : milliseconds)
            } else {
                let milliseconds = try FilterNumber.duration(text)
                guard milliseconds > 0 else {
                    throw EntryFilterError("a TTL must be longer than 0 ('now' expires at once)")
                }
                self = .set(milliseconds: milliseconds)
            }
        }
    }

    /// The milliseconds bound to `?2`.
    package var milliseconds: Int64 {
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
        case .set(let milliseconds?): "set TTL \(FilterText.duration(milliseconds))"
        case .extend(let milliseconds): "extend TTL by \(FilterText.duration(milliseconds))"
        }
    }
}
