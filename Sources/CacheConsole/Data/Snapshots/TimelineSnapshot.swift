import TerminalUI
import CacheCore

/// When entries expire, for the store or one namespace.
package struct TimelineSnapshot: Sendable, Hashable {
    /// One range of expiries.
    package struct Bucket: Sendable, Hashable {
        /// Which range.
        package var kind: ExpiryBucketKind
        /// Entries in it.
        package var entries: Int
        /// Their bytes.
        package var bytes: Int64
        /// The range's name where it is an age, not an expiry (caches without expiry).
        package var ageLabel: String?

        /// A bucket with these values.
        package init(kind: ExpiryBucketKind, entries: Int, bytes: Int64) {
            self.kind = kind
            self.entries = entries
            self.bytes = bytes
        }
    }

    /// The namespace, or `nil` for the whole store.
    package var namespace: String?
    /// The buckets, from expired to never.
    package var buckets: [Bucket]
    /// Entries expiring in each of the next 48 hours.
    package var hourly: [Int]
    /// Whether the counts are exact; `false`: lower bounds (a Redis census still counting).
    package var isExact: Bool
    /// Whether the buckets are ages (a cache that records no expiry), newest first.
    package var isAges: Bool { buckets.contains { $0.ageLabel != nil } }

    /// A timeline with these values.
    package init(namespace: String?, buckets: [Bucket], hourly: [Int], isExact: Bool = true) {
        self.isExact = isExact
        self.namespace = namespace
        self.buckets = buckets
        self.hourly = hourly
    }
}
