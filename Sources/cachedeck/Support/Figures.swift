import CacheConsole
import TerminalUI
import CacheCore
import Foundation

/// Times, durations, shares and rates as the tables show them.
enum Figures {
    /// `time` relative to `now`: `in 5m`, `3h 10m ago`, `now` (within a second).
    static func relative(_ time: Int64, now: Int64) -> String {
        let difference = time.subtractingClamped(now)
        if difference.magnitude < 1000 { return "now" }
        let distance = Int64(clamping: difference.magnitude)
        return difference > 0 ? "in " + span(distance) : span(distance) + " ago"
    }

    /// A length of time in its largest unit, with the next one below 10: `850ms`, `42s`,
    /// `5m 30s`, `25m`, `3h 5m`, `2d 4h`, `30d`.
    static func span(_ milliseconds: Int64) -> String {
        let units: [(Int64, String)] = [(86_400_000, "d"), (3_600_000, "h"), (60_000, "m"), (1000, "s")]
        guard let index = units.firstIndex(where: { milliseconds >= $0.0 }) else { return "\(milliseconds)ms" }
        let (size, name) = units[index]
        let whole = milliseconds / size
        guard whole < 10, index + 1 < units.count else { return "\(whole)\(name)" }
        let (smaller, smallerName) = units[index + 1]
        let rest = milliseconds % size / smaller
        return rest == 0 ? "\(whole)\(name)" : "\(whole)\(name) \(rest)\(smallerName)"
    }

    /// `duration` as ``span(_:)`` writes it.
    static func span(_ duration: Duration) -> String { span(duration.milliseconds) }

    /// `count` and the noun for it: `1 namespace`, `2,500 entries`.
    static func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
        "\(Formatting.count(count)) \(count == 1 ? singular : plural)"
    }

    /// A rate with one decimal and grouped thousands: `12.5`, `2,001.8`.
    static func rate(_ value: Double) -> String {
        guard value.isFinite else { return Table.none }
        let tenths = Int((value * 10).rounded())
        return (tenths < 0 ? "-" : "") + Formatting.count(abs(tenths) / 10) + ".\(abs(tenths) % 10)"
    }

    /// An expiry relative to now: `in 5m`, `expired 3m ago`, `never`.
    static func expiry(_ expiresAt: Int64?, now: Int64) -> String {
        guard let expiresAt else { return "never" }
        return expiresAt <= now ? "expired " + relative(expiresAt, now: now) : relative(expiresAt, now: now)
    }

    /// A namespace policy in a few words: `24h`, `never, newest 1,000`, `1h, ≤ 10.0 MB lru, stale 5m`.
    static func policy(_ policy: NamespacePolicy?) -> String {
        guard let policy else { return "(unreadable)" }
        guard policy.isEnabled else { return "disabled" }
        var parts: [String]
        switch policy.expiration {
        case .never: parts = ["never"]
        case .after(let duration): parts = [span(duration.milliseconds)]
        case .at(let date): parts = ["at " + TimeText.timestamp(Int64(saturating: date.timeIntervalSince1970 * 1000))]
        }
        if let maxEntries = policy.maxEntries {
            let count = Formatting.count(maxEntries)
            let kept =
                switch policy.eviction {
                case .oldestCreated: "newest \(count)"
                case .lowestSortValue: "newest \(count) by sort value"
                case .leastRecentlyUsed: "≤ \(count) lru"
                }
            parts.append(kept)
        }
        if let maxBytes = policy.maxBytes {
            let order =
                switch policy.eviction {
                case .oldestCreated: " oldest"
                case .lowestSortValue: " lowest sort value"
                case .leastRecentlyUsed: " lru"
                }
            parts.append("≤ \(Formatting.bytes(maxBytes))" + order)
        }
        if policy.staleWindow > .zero { parts.append("stale \(span(policy.staleWindow.milliseconds))") }
        if policy.tiers != .disk { parts.append(policy.tiers == .memory ? "memory only" : "memory+disk") }
        return parts.joined(separator: ", ")
    }
}
