import Foundation
import Logging
import Synchronization

/// A persistent cache: one SQLite file of namespaces (entity tables) with millisecond expiry,
/// versions, size limits and sweeps.
///
/// A store is safe to use from many threads at once and from several processes on the same
/// file. Get typed handles with ``CacheStoring/cache(_:key:value:policy:)`` or ``CacheStoring/entities(_:policy:)``.
///
/// ```swift
/// let store = try CacheStore(named: "lego")
/// let colors = try store.cache("colors", key: Int.self, value: Color.self, policy: .longTerm)
/// try colors.set(red, for: 10)
/// let color = try colors.get(10)
/// ```
public final class CacheStore: CacheBackend {
    /// The file's path.
    public let path: String
    /// The damaged file that opening moved aside, if it had to.
    public let quarantinedFile: QuarantinedFile?
    /// Whether the store was opened read-only.
    public var isReadOnly: Bool { database.isReadOnly }

    let database: Database
    package let options: StoreOptions
    let accessLog: AccessLog
    /// Names this store instance in the invalidation journal: `pid@host#random`.
    let origin: String
    let runtimes = Mutex<[String: NamespaceRuntime]>([:])
    /// ``StoreOptions/invalidationRules``, parsed once.
    let invalidationRules: CompiledInvalidationRules
    let background = Mutex<Background?>(nil)
    let services: StoreServices
    private let decodeFailures = Atomic(0)
    private let closed = Atomic(false)

    /// How long one batch of an admin action, its undo, an invalidation or a purge should take
    /// (see ``BatchSizer``); the app's writes may wait that long. Measured on the 1M-entry bench
    /// file, 100 ms batches (3,000–7,000 moved rows) moved 0–25% more rows per second than
    /// 25 ms ones (a tag's undo 30–45%), and 250 ms ones no more than 100 ms ones.
    static let actionBatchBudget: Duration = .milliseconds(100)
    /// Key invalidations of up to this many keys are one plain write transaction (see
    /// `removeKeys`); the smallest batch a sizer makes.
    static let keysInOneWrite = BatchSizer.range.lowerBound
    /// Runs the batches of admin actions and their undo (rows moved between partitions).
    let moveBatches: BatchRunner
    /// Runs the batches that delete partitions, kept expiry times and selected entries
    /// (shared with maintenance's trash purge).
    let deleter: BatchRunner

    /// Opens (or creates) the cache file at `path`.
    public init(path: String, options: StoreOptions = StoreOptions()) throws {
        self.invalidationRules = try CompiledInvalidationRules(options.invalidationRules)
        let opened = try StoreFile.open(path: path, options: options)
        self.path = path
        self.options = options
        self.database = opened.database
        self.quarantinedFile = opened.quarantined
        let instance = UInt32.random(in: 0...UInt32.max)
        self.origin = "\(getpid())@\(ProcessInfo.processInfo.hostName)#\(String(instance, radix: 16))"
        if !opened.database.isReadOnly {
            let origin = origin
            // Temporary objects only: nothing reaches the file, so no room is needed for it.
            try opened.database.write(usingReserve: true) { try $0.journalEntryWrites(origin: origin) }
        }
        self.accessLog = AccessLog(clock: options.clock)
        self.services = StoreServices(database: opened.database, accessLog: accessLog, options: options)
        let checkpointer = services.maintenance.checkpointer
        self.moveBatches = BatchRunner(
            database: opened.database, sizer: BatchSizer(checkpointer: checkpointer, stopwatch: options.batchStopwatch))
        self.deleter = services.maintenance.deleter
    }

    /// Opens (or creates) the store called `name` in the user cache directory:
    /// `$XDG_CACHE_HOME/cachedeck/<name>.sqlite`, else `~/.cache/cachedeck/<name>.sqlite`.
    public convenience init(named name: String, options: StoreOptions = StoreOptions()) throws {
        let path = Self.defaultPath(named: name)
        if !options.readOnly {
            let folder = (path as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        try self.init(path: path, options: options)
    }

    /// Where ``init(named:options:)`` keeps the store called `name`.
    public static func defaultPath(
        named name: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) as NSString).appendingPathComponent(".cache")
        return ((base as NSString).appendingPathComponent("cachedeck") as NSString).appendingPathComponent(
            "\(name).sqlite")
    }

    /// Typed values have failed to decode this many times since the store opened (each was a miss).
    public var decodeFailureCount: Int { decodeFailures.load(ordering: .relaxed) }

    // MARK: Handles

    /// A handle on `namespace` whose values are stored by `coder`.
    ///
    /// `policy` defaults to the override in ``StoreOptions/policies`` for this name, else
    /// ``StoreOptions/defaultPolicy``. Opening with a new ``NamespacePolicy/version`` removes
    /// the entries of other versions in this namespace only. Asking again for a namespace this
    /// store opened with the same policy is a dictionary lookup, so an actor may open its
    /// handle per call.
    public func cache<Key: Encodable & Sendable, Coder: CacheValueCoder>(
        _ namespace: String, key: Key.Type = Key.self, policy: NamespacePolicy? = nil, coder: Coder
    ) throws -> Cache<Key, Coder.Value> where Coder.Value: Sendable {
        let resolved = policy ?? options.policy(for: namespace, typeDefault: nil)
        // Asked again with the same policy: a lookup (the namespace is registered already).
        if !closed.load(ordering: .relaxed), let runtime = runtimes.withLock({ $0[namespace] }),
            runtime.namespaceID != nil, runtime.record.policy == resolved
        {
            return Cache(backend: self, namespace: runtime.record, runtime: runtime, coder: coder)
        }
        let record = try register(namespace, policy: resolved)
        return Cache(backend: self, namespace: record, runtime: try runtime(for: record), coder: coder)
    }

    // MARK: Maintenance

    /// Deletes every expired entry of `namespace` (of every namespace when `nil`), in batches
    /// sized to take about 25 ms each so other readers and writers interleave, and drops them
    /// from this process's memory tier; other processes' memory tiers drop them at their next
    /// coherence check (the sweep is journaled). Returns how many it removed from the file.
    ///
    /// An expired entry inside its stale window (see ``NamespacePolicy/staleWindow``) goes too,
    /// so ``Cache/getStale(_:)`` no longer finds it, unless `keepingStaleWindow` is `true`.
    /// Background maintenance (``MaintenanceOptions``) always keeps the stale window. The space
    /// the removed entries took goes back to the filesystem (see ``compact(progress:)``).
    @discardableResult
    public func sweepExpired(namespace: String? = nil, keepingStaleWindow: Bool = false) throws -> Int {
        let now = now()
        for runtime in allRuntimes where namespace == nil || runtime.name == namespace {
            runtime.dropExpired(at: now, keepingStaleWindow: keepingStaleWindow)
        }
        let removed = try services.maintenance.sweepExpired(
            namespace: namespace, keepingStaleWindow: keepingStaleWindow)
        guard removed > 0 else { return 0 }
        let swept = JournalChange.swept(namespace: namespace, at: now, keepingStaleWindow: keepingStaleWindow)
        try database.write { try $0.appendJournal(swept, removed: removed, origin: origin, now: now) }
        giveSpaceBack()
        return removed
    }

    /// Writes the sets waiting in write-behind namespaces and the reads recorded in memory
    /// (access times, hit counts, lazy deletions).
    public func flush() throws {
        try flushPendingWrites(force: true)
        guard !database.isReadOnly, !accessLog.isEmpty else { return }
        let now = now()
        // Rewrites rows in place (and deletes the expired): it may use the room kept for removals.
        try database.write(usingReserve: true) { connection in
            try connection.writeTransaction { try AccessLog.write(accessLog.drain(), to: connection, now: now) }
        }
    }

    /// Flushes and closes the store; later calls throw ``CacheError/cannotOpen(path:reason:)``,
    /// except `close()` itself: closing a closed store does nothing.
    public func close() throws {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        defer { database.close() }
        stopBackground()
        services.shutDown()
        try flush()
    }

    // MARK: Internals shared by handles

    func now() -> Int64 { options.clock.nowMilliseconds() }

    package func counters(for namespace: NamespaceRecord) -> NamespaceCounters {
        services.statistics.counters(for: namespace)
    }

    /// The live entries of `namespace` in the file (after writing the sets
    /// waiting in write-behind namespaces).
    package func liveCount(of namespace: NamespaceRecord, runtime: NamespaceRuntime, now: Int64) throws -> Int {
        guard runtime.namespaceID != nil else { return runtime.memory?.liveCount(at: now) ?? 0 }
        try flushPendingWrites(force: true)
        let (name, version) = (namespace.name, namespace.policy.version)
        return try database.read { connection in
            guard let row = try connection.namespaceRow(name: name), row.version == version else { return 0 }
            let totals = try connection.namespaceTotals(namespaceID: row.id)
            return totals.entries - (try connection.countExpired(namespaceID: row.id, now: now))
        }
    }

    package func noteDecodeFailure(namespace: String, key: String, error: any Error) {
        decodeFailures.add(1, ordering: .relaxed)
        options.logger.warning(
            "cached value no longer decodes; treated as a miss",
            metadata: ["namespace": "\(namespace)", "key": "\(key)", "error": "\(error)"])
    }

    /// Writes `rows` into the runtime's namespace in one transaction, then enforces size
    /// limits (after writing the whole access log, so recency is current). Otherwise the
    /// access log is written in the background (see ``StoreServices``), never on a set's path.
    /// `committed` runs under the writer lock once the rows are durable, so memory copies
    /// are updated in the same order as the file.
    ///
    /// When another process cleared the namespace since this one resolved its row, the rows
    /// go to the new row; when a newer version took the namespace over, they are dropped
    /// (that version would never read them) and `committed` does not run.
    package func write(_ rows: [EntryWrite], in runtime: NamespaceRuntime, committed: () -> Void = {}) throws {
        guard !database.isReadOnly else { throw CacheError.readOnly(path: path) }
        let policy = runtime.record.policy
        let limited =
            policy.maxEntries != nil || policy.maxBytes != nil || options.maxEntries != nil || options.maxBytes != nil
        let adding = rows.reduce(0) { $0 + $1.size }
        for _ in 0..<2 {
            guard let namespaceID = runtime.namespaceID else { return }
            let written = try database.write(adding: adding) { connection in
                let now = now()
                if rows.count == 1 && !limited {
                    guard
                        try connection.upsertEntry(
                            namespaceID: namespaceID, ifLiveAs: runtime.name, rows[0], version: policy.version, now: now
                        )
                    else { return false }
                    committed()
                    return true
                }
                let written = try connection.writeTransaction {
                    guard try connection.isLiveNamespace(id: namespaceID, name: runtime.name) else { return false }
                    try connection.upsertEntries(namespaceID: namespaceID, rows, version: policy.version, now: now)
                    if limited { try AccessLog.write(accessLog.drain(), to: connection, now: now) }
                    let pools = database.evictionPools
                    let evicted = try Eviction.enforce(
                        namespaceID: namespaceID, policy: policy, on: connection, pools: pools, now: now)
                    let storeEvicted = try Eviction.enforceStore(
                        maxEntries: options.maxEntries, maxBytes: options.maxBytes, on: connection, pools: pools,
                        now: now)
                    try services.statistics.record(evicted + storeEvicted, on: connection)
                    return true
                }
                if written { committed() }
                return written
            }
            if written { return }
            try resolve(runtime)
        }
    }

    /// The entry `key` of the runtime's namespace, following the namespace to its new row
    /// when another process cleared it since this one resolved it.
    package func lookup(_ key: String, in runtime: NamespaceRuntime) throws -> StoredEntry? {
        for _ in 0..<2 {
            guard let namespaceID = runtime.namespaceID else { return nil }
            switch try database.lookup({ try $0.lookupEntry(namespaceID: namespaceID, name: runtime.name, key: key) }) {
            case .found(let entry): return entry
            case .missing: return nil
            case .moved: try resolve(runtime)
            }
        }
        return nil
    }

    /// Points `runtime` at its namespace's live row: the same version's new row after a clear
    /// (or its undo), or none when a newer version owns the namespace now (logged once).
    func resolve(_ runtime: NamespaceRuntime) throws {
        let live = try database.read { try $0.namespaceRow(name: runtime.name) }
        let version = runtime.record.policy.version
        if let live, live.version == version {
            runtime.retarget(live.id)
            return
        }
        runtime.retarget(nil)
        options.logger.warning(
            "namespace taken over by another version; this handle no longer reads or writes the file",
            metadata: [
                "namespace": "\(runtime.name)", "version": "\(version)", "file version": "\(live?.version ?? "none")",
            ])
    }

    /// Records a read in memory (never a write): a hit, or an entry found past its stale
    /// window, to be deleted lazily. Read-only stores record nothing.
    package func recordRead(_ entry: StoredEntry, now: Int64) {
        guard !database.isReadOnly else { return }
        if entry.isPurgeable(at: now) {
            accessLog.recordExpired(entry.id)
        } else if !entry.isExpired(at: now) {
            accessLog.recordHit(entry.id, at: now)
        }
    }

    // MARK: Namespaces

    /// The live row id of namespace `name`, if the file has it. (A clear gives the name a new
    /// row, so ids are looked up, not remembered.)
    func namespaceRowID(_ name: String) throws -> Int64? {
        try database.read { try $0.namespaceRow(name: name)?.id }
    }

    /// Finds or creates the namespace row, records the policy, and applies a version change.
    /// Opening a namespace whose recorded policy is unchanged writes nothing.
    private func register(_ name: String, policy: NamespacePolicy) throws -> NamespaceRecord {
        if database.isReadOnly { return NamespaceRecord(id: try namespaceRowID(name), name: name, policy: policy) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let policyJSON = String(decoding: (try? encoder.encode(policy)) ?? Data("{}".utf8), as: UTF8.self)
        let recorded = try database.read { try $0.namespaceRow(name: name) }
        if let recorded, recorded.policyJSON == policyJSON, recorded.version == policy.version {
            return NamespaceRecord(id: recorded.id, name: name, policy: policy)
        }
        let now = now()
        let (id, retired) = try database.write { connection in
            try connection.writeTransaction { () -> (Int64, Int?) in
                guard let existing = try connection.namespaceRow(name: name) else {
                    let id = try connection.insertNamespace(
                        name: name, version: policy.version, policyJSON: policyJSON, now: now)
                    return (id, nil)
                }
                guard existing.version == policy.version else {
                    let moved = try connection.partitionNamespace(
                        id: existing.id, auditID: nil, version: policy.version, policyJSON: policyJSON, now: now)
                    return (moved.newID, moved.entries)
                }
                try connection.updateNamespacePolicy(id: existing.id, policyJSON: policyJSON, now: now)
                return (existing.id, nil)
            }
        }
        if let retired {
            options.logger.debug(
                "namespace version changed; old entries retired (maintenance deletes them)",
                metadata: ["namespace": "\(name)", "version": "\(policy.version)", "retired": "\(retired)"])
        }
        return NamespaceRecord(id: id, name: name, policy: policy)
    }
}
