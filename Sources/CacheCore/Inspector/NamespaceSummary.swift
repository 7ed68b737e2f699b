/// One namespace at a glance. Sizes are bytes; times are milliseconds since the Unix epoch.
public struct NamespaceSummary: Sendable, Hashable, Codable {
    /// The namespace's name.
    public var name: String
    /// Stored entries (the namespace's counter), expired ones not yet swept included.
    public var entryCount: Int
    /// Stored entries that have expired (`now >= expiresAt`) and wait for a sweep.
    public var expiredEntryCount: Int
    /// Entries a read can return: ``entryCount`` minus ``expiredEntryCount``.
    public var liveEntryCount: Int
    /// Key plus value bytes of the stored entries (the namespace's counter).
    public var bytes: Int64
    /// The namespace version in force.
    public var version: String
    /// How many times the version changed (each change discarded the older entries).
    public var generation: Int
    /// The recorded policy, or `nil` when its JSON does not decode (see ``policyJSON``).
    public var policy: NamespacePolicy?
    /// The policy as recorded in the file.
    public var policyJSON: String
    /// When the namespace was first opened.
    public var createdAt: Int64
    /// When its policy or version last changed.
    public var updatedAt: Int64
    /// What every process did in the namespace in the last minute: hit rate, operations per
    /// second and health (see ``Inspector/recentWindowMilliseconds``).
    public var lastMinute: Activity

    /// The memberwise initializer, for the package's other targets.
    package init(
        name: String, entryCount: Int, expiredEntryCount: Int, liveEntryCount: Int, bytes: Int64, version: String,
        generation: Int, policy: NamespacePolicy?, policyJSON: String, createdAt: Int64, updatedAt: Int64,
        lastMinute: Activity
    ) {
        self.name = name
        self.entryCount = entryCount
        self.expiredEntryCount = expiredEntryCount
        self.liveEntryCount = liveEntryCount
        self.bytes = bytes
        self.version = version
        self.generation = generation
        self.policy = policy
        self.policyJSON = policyJSON
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastMinute = lastMinute
    }
}
