import Logging

/// How a ``CacheStore`` opens its file and which defaults its namespaces get.
public struct StoreOptions: Sendable {
    /// What to do with a file at the path that is not a readable database.
    public enum DamagedFilePolicy: Sendable {
        /// Move it aside as `<file>.corrupt-<timestamp>`, log it, and start a fresh store.
        case quarantine
        /// Fail with ``CacheError/notACacheFile(path:reason:)`` and leave the file alone.
        case fail
    }

    /// The source of "now"; inject a ``ManualClock`` in tests.
    public var clock: any CacheClock
    /// Open the file without write access; every write throws ``CacheError/readOnly(path:)``.
    public var readOnly: Bool
    /// Create the file (mode 0600) when it does not exist.
    public var createIfMissing: Bool
    /// What happens to a damaged file. Inspection tools use ``DamagedFilePolicy/fail``.
    public var onDamagedFile: DamagedFilePolicy
    /// `true` moves a file at the path that is not a cache (another program's database, an
    /// older cache of the app's own) aside as a damaged one is (`<file>.corrupt-<ms>`) and
    /// starts a fresh cache; `false` (the default) refuses it with
    /// ``CacheError/notACacheFile(path:reason:)`` and leaves it alone. A symbolic link is
    /// never replaced, nor written through to a file that is not a cache.
    public var replacesForeignFile = false
    /// How many files moved aside (`<file>.corrupt-<ms>`) are kept: moving one more deletes
    /// the oldest beyond this count (with their `-wal` and `-shm`).
    public var keptQuarantinedFiles = 3
    /// Whom the store trusts to have written the file: ``FileTrust/owner`` for apps (the
    /// default), ``FileTrust/inspector`` for ``inspection(writable:)``.
    public var fileTrust: FileTrust = .owner
    /// The policy of namespaces that have no override and are opened without one (and whose
    /// entity type has no ``CacheEntity/cachePolicy``).
    public var defaultPolicy: NamespacePolicy
    /// Per-namespace policy overrides, by namespace name. They beat an entity type's
    /// ``CacheEntity/cachePolicy``; a policy passed when opening a handle beats both.
    public var policies: [String: NamespacePolicy]
    /// Store-wide entry limit across all namespaces.
    public var maxEntries: Int?
    /// Store-wide byte limit across all namespaces.
    public var maxBytes: Int?
    /// How long a call waits for another connection's lock before failing with `busy`.
    public var busyTimeout: Duration
    /// Where CacheCore logs quarantines and undecodable values.
    public var logger: Logger
    /// Dependency rules and domain events for ``CacheStore/invalidate(_:)-(InvalidationSelector)``; checked on open.
    public var invalidationRules: InvalidationRules
    /// How often a store with a memory tier looks for other processes' invalidations and
    /// writes (a cheap `PRAGMA data_version` when nothing changed) and flushes write-behind
    /// sets. A copy another process replaced or removed is dropped within this interval.
    public var coherenceInterval: Duration
    /// How long loaders wait before retrying a key whose load failed.
    public var loadBackoff: LoadBackoff
    /// What is counted, how often counters and a heartbeat go into the file, and whether
    /// they are emitted through swift-metrics.
    public var statistics = StatisticsOptions()
    /// Bytes of the file's filesystem that only removals may use, so that a full disk can be
    /// relieved with `clear`, `sweep` and the trash purge: sets (and other writes that add
    /// data) fail with ``CacheError/diskFull(path:)`` once the free space, counting the
    /// file's free pages, falls below it. `nil`: 1/32 of the filesystem, between 256 KiB and
    /// 64 MiB; 0 turns the reserve off.
    public var diskReserve: Int?
    /// The clock batches are timed with (see ``BatchSizer``); tests inject their own.
    var batchStopwatch: BatchSizer.Stopwatch = BatchSizer.monotonic

    /// Creates options; the defaults suit an app's own cache.
    public init(
        clock: any CacheClock = SystemClock(),
        readOnly: Bool = false,
        createIfMissing: Bool = true,
        onDamagedFile: DamagedFilePolicy = .quarantine,
        defaultPolicy: NamespacePolicy = .default,
        policies: [String: NamespacePolicy] = [:],
        maxEntries: Int? = nil,
        maxBytes: Int? = nil,
        busyTimeout: Duration = .seconds(5),
        logger: Logger = Logger(label: "CacheCore"),
        invalidationRules: InvalidationRules = InvalidationRules(),
        coherenceInterval: Duration = .milliseconds(250),
        loadBackoff: LoadBackoff = LoadBackoff()
    ) {
        self.clock = clock
        self.readOnly = readOnly
        self.createIfMissing = createIfMissing
        self.onDamagedFile = onDamagedFile
        self.defaultPolicy = defaultPolicy
        self.policies = policies
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
        self.busyTimeout = busyTimeout
        self.logger = logger
        self.invalidationRules = invalidationRules
        self.coherenceInterval = coherenceInterval
        self.loadBackoff = loadBackoff
    }

    /// Options for tools that inspect a file someone else owns: no creation, no quarantine,
    /// read-only unless `writable`, and no telemetry or metrics of their own (the tool is not
    /// one of the file's apps).
    public static func inspection(writable: Bool = false) -> StoreOptions {
        var options = StoreOptions(readOnly: !writable, createIfMissing: false, onDamagedFile: .fail)
        options.fileTrust = .inspector
        options.statistics.telemetryInterval = nil
        options.statistics.metrics = .off
        return options
    }
}

extension StoreOptions {
    /// The policy of `namespace` opened without one: ``policies`` first, then `typeDefault`
    /// (an entity's ``CacheEntity/cachePolicy``), then ``defaultPolicy``.
    public func policy(for namespace: String, typeDefault: NamespacePolicy?) -> NamespacePolicy {
        policies[namespace] ?? typeDefault ?? defaultPolicy
    }
}
