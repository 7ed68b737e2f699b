/// How a namespace stores its entries: default expiry, version, size limits and eviction.
public struct NamespacePolicy: Sendable, Hashable, Codable {
    /// What size-limit eviction removes once expired entries are gone.
    public enum Eviction: String, Sendable, Hashable, Codable {
        /// Least recently read (or written) first.
        case leastRecentlyUsed
        /// Oldest written first: "keep the newest N".
        case oldestCreated
    }

    /// The expiry applied when a write does not give its own.
    public var expiration: Expiration
    /// The namespace version; changing it discards every entry written under another version.
    public var version: String
    /// Evict once the namespace holds more entries than this.
    public var maxEntries: Int?
    /// Evict once the namespace's values exceed this many bytes.
    public var maxBytes: Int?
    /// What eviction removes after the expired entries.
    public var eviction: Eviction
    /// How long after expiry an entry is kept for stale reads (stale-if-error) before sweeps
    /// may delete it. Expired entries are never returned by ordinary reads.
    public var staleWindow: Duration
    /// `false` makes the namespace store nothing and read nothing.
    public var isEnabled: Bool

    /// Creates a policy; every parameter has the ``default`` preset's value.
    public init(
        expiration: Expiration = .after(.seconds(24 * 3600)),
        version: String = "",
        maxEntries: Int? = nil,
        maxBytes: Int? = nil,
        eviction: Eviction = .leastRecentlyUsed,
        staleWindow: Duration = .zero,
        isEnabled: Bool = true
    ) {
        self.expiration = expiration
        self.version = version
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
        self.eviction = eviction
        self.staleWindow = staleWindow
        self.isEnabled = isEnabled
    }

    /// Entries live 24 hours.
    public static let `default` = NamespacePolicy()
    /// Entries live 7 days.
    public static let longTerm = NamespacePolicy(expiration: .after(.seconds(7 * 24 * 3600)))
    /// Entries live 1 hour.
    public static let shortTerm = NamespacePolicy(expiration: .after(.seconds(3600)))
    /// Stores nothing and reads nothing.
    public static let disabled = NamespacePolicy(isEnabled: false)

    /// A copy with `version` replaced.
    public func version(_ version: String) -> NamespacePolicy {
        var copy = self
        copy.version = version
        return copy
    }

    /// A copy that keeps at most `count` entries, dropping the oldest written first.
    public func keepingNewest(_ count: Int) -> NamespacePolicy {
        var copy = self
        copy.maxEntries = count
        copy.eviction = .oldestCreated
        return copy
    }
}
