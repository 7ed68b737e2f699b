import CacheCore

/// When entries expire, for the store or one namespace.
public struct TimelineSnapshot: Sendable, Hashable {
    /// One range of expiries.
    public struct Bucket: Sendable, Hashable {
        /// Which range.
        public var kind: ExpiryBucketKind
        /// Entries in it.
        public var entries: Int
        /// Their bytes.
        public var bytes: Int64

        /// A bucket with these values.
        public init(kind: ExpiryBucketKind, entries: Int, bytes: Int64) {
            self.kind = kind
            self.entries = entries
            self.bytes = bytes
        }
    }

    /// The namespace, or `nil` for the whole store.
    public var namespace: String?
    /// The buckets, from expired to never.
    public var buckets: [Bucket]
    /// Entries expiring in each of the next 48 hours.
    public var hourly: [Int]

    /// A timeline with these values.
    public init(namespace: String?, buckets: [Bucket], hourly: [Int]) {
        self.namespace = namespace
        self.buckets = buckets
        self.hourly = hourly
    }
}
