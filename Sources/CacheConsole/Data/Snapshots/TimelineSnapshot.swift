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
        /// The earliest expiry in the range and the first after it (ms; `nil`: unbounded),
        /// when known: what a drill-down filters on.
        package var from: Int64?, until: Int64?

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
    /// Where each hour starts and, last, where the 48th ends (ms); empty when unknown.
    package var hourStarts: [Int64] = []
    /// Whether the counts are exact; `false`: lower bounds (a Redis census still counting).
    package var isExact: Bool
    /// Whether the buckets are ages (a cache that records no expiry), newest first.
    package var isAges: Bool { buckets.contains { $0.ageLabel != nil } }

    /// The Entries filter that lists exactly what bucket `index` counts (as of the read);
    /// `nil` when its bounds are unknown.
    func filter(bucket index: Int) -> String? {
        guard buckets.indices.contains(index), !isAges else { return nil }
        let bucket = buckets[index]
        switch bucket.kind {
        case .never: return EntryFilter([.neverExpires]).description
        case .expired:
            return bucket.until.map { EntryFilter([.expiresAt(.less, milliseconds: $0)]).description }
        default:
            guard let from = bucket.from else { return nil }
            return EntryFilter(
                [.expiresAt(.greaterOrEqual, milliseconds: from)]
                    + (bucket.until.map { [.expiresAt(.less, milliseconds: $0)] } ?? [])
            ).description
        }
    }

    /// The Entries filter that lists exactly what hour `hour` of the next 48 counts.
    func filter(hour: Int) -> String? {
        guard hourStarts.indices.contains(hour + 1) else { return nil }
        return EntryFilter([
            .expiresAt(.greaterOrEqual, milliseconds: hourStarts[hour]),
            .expiresAt(.less, milliseconds: hourStarts[hour + 1]),
        ]).description
    }

    /// A timeline with these values.
    package init(namespace: String?, buckets: [Bucket], hourly: [Int], isExact: Bool = true) {
        self.isExact = isExact
        self.namespace = namespace
        self.buckets = buckets
        self.hourly = hourly
    }
}
