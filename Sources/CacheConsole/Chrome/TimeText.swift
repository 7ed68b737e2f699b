import TerminalUI
import CacheCore

import Foundation

/// Times and rates in the few characters a table column has.
package enum TimeText {
    /// A moment as ISO 8601 in UTC, to the second (`2026-11-27T00:12:03Z`).
    package static func timestamp(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(.iso8601)
    }

    /// The time of day of a moment in UTC, to the second (`05:03:00`).
    static func clock(_ milliseconds: Int64) -> String {
        let seconds = ((milliseconds / 1000) % 86_400 + 86_400) % 86_400
        return [seconds / 3600, seconds / 60 % 60, seconds % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }
            .joined(separator: ":")
    }

    /// A span of milliseconds: `0s`, `45s`, `12m`, `5h`, `3d`, `8w`, `2y`.
    static func span(_ milliseconds: Int64) -> String {
        let seconds = max(0, milliseconds) / 1000
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3600: return "\(seconds / 60)m"
        case ..<(48 * 3600): return "\(seconds / 3600)h"
        case ..<(14 * 86_400): return "\(seconds / 86_400)d"
        case ..<(365 * 86_400): return "\(seconds / (7 * 86_400))w"
        default: return "\(seconds / (365 * 86_400))y"
        }
    }

    /// Time since `then`: `12s ago`.
    static func ago(_ then: Int64, now: Int64) -> String {
        span(between(then, now)) + " ago"
    }

    /// Milliseconds from `start` to `end`, saturating: times read from a cache file may be at
    /// the limits of `Int64`.
    static func between(_ start: Int64, _ end: Int64) -> Int64 {
        end.subtractingClamped(start)
    }

    /// When `entry` was last read: `12s ago`, `never` when it was never read (its access
    /// time is then when it was written), or `–` where reads are not recorded.
    static func accessed(_ entry: EntryInfo, now: Int64) -> String {
        guard let lastAccessAt = entry.lastAccessAt else { return "–" }
        return entry.hits == 0 ? "never" : ago(lastAccessAt, now: now)
    }

    /// How fresh a CacheDeck file's hits and last access are: each app writes its reads,
    /// memory-tier hits included, about once a second.
    static let readsLag = " (≤ ~1 s behind)"

    /// Time until `expiresAt`: `in 3h`, `expired`, `never`.
    static func expiry(_ expiresAt: Int64?, now: Int64) -> String {
        guard let expiresAt else { return "never" }
        return now >= expiresAt ? "expired" : "in " + span(between(now, expiresAt))
    }

    /// A refresh interval: `250 ms`, `1 s`, `1 min`.
    static func interval(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds < 60_000 {
            return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
        }
        return "\(milliseconds / 60_000) min"
    }

    /// A share: `87.3%`; `–` when unknown.
    package static func percent(_ fraction: Double?) -> String {
        guard let fraction, fraction.isFinite else { return "–" }
        let tenths = Int((fraction * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// A rate: `2,013/s`, `4.5/s`, `0/s`.
    static func rate(_ perSecond: Double) -> String {
        guard perSecond.isFinite, perSecond > 0 else { return "0/s" }
        if perSecond >= 100 { return Formatting.count(Int(perSecond.rounded())) + "/s" }
        let tenths = Int((perSecond * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)/s" : "\(tenths / 10).\(tenths % 10)/s"
    }

    /// Milliseconds taken: `3 ms`, `0.4 ms`; `–` when unknown.
    static func milliseconds(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "–" }
        if value >= 10 { return "\(Int(value.rounded())) ms" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) ms"
    }
}
