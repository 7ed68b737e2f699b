/// Where an entry's expiry falls relative to now. An entry with `now >= expiresAt` has expired.
public enum ExpiryBucketKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Expired, not yet swept.
    case expired
    /// Expires in less than a minute.
    case withinMinute
    /// Expires in one to five minutes.
    case withinFiveMinutes
    /// Expires in five minutes to an hour.
    case withinHour
    /// Expires in one hour to a day.
    case withinDay
    /// Expires in one to seven days.
    case withinWeek
    /// Expires in seven days or more.
    case later
    /// Never expires.
    case never
}

/// The entries whose expiry falls in one ``ExpiryBucketKind``.
public struct ExpiryBucket: Sendable, Hashable, Codable {
    /// Which range of expiries this is.
    public var kind: ExpiryBucketKind
    /// The earliest expiry in the range (milliseconds since the epoch), `nil` when unbounded.
    public var from: Int64?
    /// The first expiry after the range, `nil` when unbounded.
    public var until: Int64?
    /// Entries in the range.
    public var entries: Int
    /// Their key plus value bytes.
    public var bytes: Int64
}

/// The entries that expire within one hour of the next 48.
public struct ExpiryHour: Sendable, Hashable, Codable {
    /// Hours from now: hour 0 is the coming hour.
    public var hour: Int
    /// The earliest expiry in the hour (milliseconds since the epoch).
    public var from: Int64
    /// The first expiry after the hour.
    public var until: Int64
    /// Entries that expire in the hour.
    public var entries: Int
    /// Their key plus value bytes.
    public var bytes: Int64
}

/// When the stored entries expire, counted from the expiry index.
public struct ExpiryTimeline: Sendable, Hashable, Codable {
    /// The namespace counted, or `nil` for the whole store.
    public var namespace: String?
    /// The time the ranges are relative to (milliseconds since the epoch).
    public var now: Int64
    /// One bucket per ``ExpiryBucketKind``, in that order.
    public var buckets: [ExpiryBucket]
    /// The next 48 hours, hour by hour.
    public var hourly: [ExpiryHour]
}
