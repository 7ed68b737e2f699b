/// How a namespace stores its entries: its tiers, default expiry, version, size limits and
/// eviction.
///
/// It is recorded in the file as JSON (durations in integer milliseconds) so other tools can
/// show it.
public struct NamespacePolicy: Sendable, Hashable {
    /// What size-limit eviction removes once expired entries are gone.
    public enum Eviction: String, Sendable, Hashable, Codable {
        /// Least recently read (or written) first.
        case leastRecentlyUsed
        /// Oldest first inserted first: "keep the newest N" (overwriting a key keeps its place).
        case oldestCreated
        /// Lowest app-given sort value first, entries set without one before any: "keep the
        /// newest N" by the sort value (an email's date), whatever order they were written in.
        case lowestSortValue
    }

    /// What ``keepingNewest(_:by:)`` calls newest.
    public enum Newest: Sendable, Hashable {
        /// First inserted last (``Eviction/oldestCreated``).
        case written
        /// Highest sort value (``Eviction/lowestSortValue``).
        case sortValue
    }

    /// Where entries live: memory, the file, or memory in front of the file.
    public var tiers: CacheTiers
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
    /// How long after expiry an entry is kept for stale reads (``Cache/getStale(_:)``, and
    /// loaders' stale-while-revalidate and stale-if-error) before sweeps may delete it.
    /// Expired entries are never returned by ordinary reads and never counted as live.
    ///
    /// Defaults to ``defaultStaleWindow`` (one hour) in every preset, so an app keeps serving
    /// what it had for an hour while its origin is down. `.zero` (or ``withoutStaleWindow()``)
    /// turns it off: expired entries can then be swept at once.
    public var staleWindow: Duration
    /// `false` makes the namespace store nothing and read nothing.
    public var isEnabled: Bool
    /// The memory tier's entry limit (least recently used entries leave first).
    public var memoryMaxEntries: Int
    /// The memory tier's byte limit (encoded value plus key bytes), if any.
    public var memoryMaxBytes: Int?
    /// How long a copy stays in the memory tier (from when it was stored or read from the
    /// file), if less than the entry's own expiry: after it, reads go to the file again and
    /// copy the entry back. `nil`: until the entry expires. (Caffeine's `expireAfterWrite` on
    /// the memory tier of a longer-lived file entry.)
    public var memoryTimeToLive: Duration?
    /// `nil` writes every set to the file before it returns (write-through). A duration
    /// batches file writes and flushes them at that interval (write-behind): sets are
    /// faster, and a crash loses at most the last interval's sets. ``CacheStore/flush()``
    /// and ``CacheStore/close()`` write them at once. Needs the memory tier.
    public var writeBehind: Duration?

    /// Creates a policy; every parameter has the ``default`` preset's value.
    public init(
        tiers: CacheTiers = .disk,
        expiration: Expiration = .after(.seconds(24 * 3600)),
        version: String = "",
        maxEntries: Int? = nil,
        maxBytes: Int? = nil,
        eviction: Eviction = .leastRecentlyUsed,
        staleWindow: Duration = NamespacePolicy.defaultStaleWindow,
        isEnabled: Bool = true,
        memoryMaxEntries: Int = 10_000,
        memoryMaxBytes: Int? = nil,
        writeBehind: Duration? = nil,
        memoryTimeToLive: Duration? = nil
    ) {
        self.tiers = tiers
        self.expiration = expiration
        self.version = version
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
        self.eviction = eviction
        self.staleWindow = staleWindow
        self.isEnabled = isEnabled
        self.memoryMaxEntries = memoryMaxEntries
        self.memoryMaxBytes = memoryMaxBytes
        self.writeBehind = writeBehind
        self.memoryTimeToLive = memoryTimeToLive
    }

    /// The stale window of every preset: one hour.
    public static let defaultStaleWindow: Duration = .seconds(3600)

    /// Entries live 24 hours (and stay readable as stale for ``defaultStaleWindow`` after).
    public static let `default` = NamespacePolicy()
    /// Entries live 7 days.
    public static let longTerm = NamespacePolicy(expiration: .after(.seconds(7 * 24 * 3600)))
    /// Entries live 1 hour.
    public static let shortTerm = NamespacePolicy(expiration: .after(.seconds(3600)))
    /// Stores nothing and reads nothing.
    public static let disabled = NamespacePolicy(isEnabled: false)
    /// Entries live 24 hours in the file only (the same as ``default``).
    public static let databaseOnly = NamespacePolicy()
    /// Entries live 24 hours in this process's memory only; nothing reaches the file.
    public static let memoryOnly = NamespacePolicy(tiers: .memory)
    /// Entries live 24 hours in the file with the hottest 10,000 in memory in front.
    public static let hybrid = NamespacePolicy(tiers: .memoryAndDisk)
    /// ``hybrid`` with write-behind: file writes are batched every second.
    public static let performance = NamespacePolicy(tiers: .memoryAndDisk, writeBehind: .seconds(1))

    /// A copy with `version` replaced.
    public func version(_ version: String) -> NamespacePolicy {
        var copy = self
        copy.version = version
        return copy
    }

    /// A copy with `expiration` replaced.
    public func expiring(_ expiration: Expiration) -> NamespacePolicy {
        var copy = self
        copy.expiration = expiration
        return copy
    }

    /// A copy whose expired entries stay readable as stale for `window` (see ``staleWindow``).
    public func staleWindow(_ window: Duration) -> NamespacePolicy {
        var copy = self
        copy.staleWindow = max(window, .zero)
        return copy
    }

    /// A copy whose memory copies last at most `timeToLive` (see ``memoryTimeToLive``), and
    /// at most `maxEntries` of them when given: `.hybrid.memory(timeToLive: .seconds(300),
    /// maxEntries: 100)` over 24 hours in the file.
    public func memory(timeToLive: Duration, maxEntries: Int? = nil) -> NamespacePolicy {
        var copy = self
        copy.memoryTimeToLive = timeToLive
        if let maxEntries { copy.memoryMaxEntries = maxEntries }
        return copy
    }

    /// A copy without a stale window: expired entries are never read again and can be swept
    /// at once.
    public func withoutStaleWindow() -> NamespacePolicy {
        var copy = self
        copy.staleWindow = .zero
        return copy
    }

    /// A copy that keeps at most `count` entries, dropping the oldest first: the first inserted
    /// (`.written`, the default) or those with the lowest sort value (`.sortValue`; entries set
    /// without one go first).
    public func keepingNewest(_ count: Int, by newest: Newest = .written) -> NamespacePolicy {
        var copy = self
        copy.maxEntries = count
        copy.eviction = newest == .written ? .oldestCreated : .lowestSortValue
        return copy
    }
}

extension NamespacePolicy: Codable {
    private enum CodingKeys: String, CodingKey {
        case tiers, expiration, version, maxEntries, maxBytes, eviction, staleWindowMilliseconds, isEnabled
        case memoryMaxEntries, memoryMaxBytes, writeBehindMilliseconds, memoryTimeToLiveMilliseconds
    }

    /// Decodes the recorded JSON; missing fields take the ``default`` preset's values.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = NamespacePolicy()
        self.init(
            tiers: try container.decodeIfPresent(CacheTiers.self, forKey: .tiers) ?? defaults.tiers,
            expiration: try container.decodeIfPresent(Expiration.self, forKey: .expiration) ?? defaults.expiration,
            version: try container.decodeIfPresent(String.self, forKey: .version) ?? defaults.version,
            maxEntries: try container.decodeIfPresent(Int.self, forKey: .maxEntries),
            maxBytes: try container.decodeIfPresent(Int.self, forKey: .maxBytes),
            eviction: try container.decodeIfPresent(Eviction.self, forKey: .eviction) ?? defaults.eviction,
            staleWindow: .milliseconds(
                try container.decodeIfPresent(Int64.self, forKey: .staleWindowMilliseconds)
                    ?? defaults.staleWindow.milliseconds),
            isEnabled: try container.decodeIfPresent(Bool.self, forKey: .isEnabled) ?? true,
            memoryMaxEntries: try container.decodeIfPresent(Int.self, forKey: .memoryMaxEntries)
                ?? defaults.memoryMaxEntries,
            memoryMaxBytes: try container.decodeIfPresent(Int.self, forKey: .memoryMaxBytes),
            writeBehind: try container.decodeIfPresent(Int64.self, forKey: .writeBehindMilliseconds).map {
                .milliseconds($0)
            },
            memoryTimeToLive: try container.decodeIfPresent(Int64.self, forKey: .memoryTimeToLiveMilliseconds).map {
                .milliseconds($0)
            })
    }

    /// Encodes every field, durations as integer milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tiers, forKey: .tiers)
        try container.encode(expiration, forKey: .expiration)
        try container.encode(version, forKey: .version)
        try container.encodeIfPresent(maxEntries, forKey: .maxEntries)
        try container.encodeIfPresent(maxBytes, forKey: .maxBytes)
        try container.encode(eviction, forKey: .eviction)
        try container.encode(staleWindow.milliseconds, forKey: .staleWindowMilliseconds)
        try container.encode(isEnabled, forKey: .isEnabled)
        try container.encode(memoryMaxEntries, forKey: .memoryMaxEntries)
        try container.encodeIfPresent(memoryMaxBytes, forKey: .memoryMaxBytes)
        try container.encodeIfPresent(writeBehind?.milliseconds, forKey: .writeBehindMilliseconds)
        try container.encodeIfPresent(memoryTimeToLive?.milliseconds, forKey: .memoryTimeToLiveMilliseconds)
    }
}

/// The tiers a namespace keeps its entries in.
public enum CacheTiers: String, Sendable, Hashable, Codable {
    /// This process's memory only: fastest, lost on exit, invisible to other processes.
    case memory
    /// The cache file only: shared by every process and kept across launches.
    case disk
    /// Memory in front of the file: reads try memory first; a file hit is copied into memory
    /// with its original expiry; writes go to both.
    case memoryAndDisk

    /// Whether entries are kept in memory.
    public var usesMemory: Bool { self != .disk }
    /// Whether entries are kept in the file.
    public var usesDisk: Bool { self != .memory }
}

extension NamespacePolicy {
    /// The expiry and end of stale window of a memory copy made at `now` of an entry with
    /// these: the entry's own, both cut at ``memoryTimeToLive`` (after which the copy is gone).
    func memoryCopyTimes(expiresAt: Int64?, staleUntil: Int64?, now: Int64) -> (expiresAt: Int64?, staleUntil: Int64?) {
        guard let timeToLive = memoryTimeToLive else { return (expiresAt, staleUntil) }
        let end = now.addingClamped(timeToLive.milliseconds)
        return (min(expiresAt ?? .max, end), min(staleUntil ?? .max, end))
    }
}
