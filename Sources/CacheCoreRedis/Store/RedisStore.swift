import CacheCore
import Foundation
import Synchronization

/// A cache on a Redis (or Valkey) server, shared by every host that opens the same server and
/// prefix: the same `Cache` handles, namespaces, policies, expiry, versions, tags,
/// dependency rules, loaders and statistics as a `CacheStore`.
///
/// Entries expire on the server (`PEXPIRE` at the end of their stale window). A namespace
/// with `tiers: .memoryAndDisk` keeps a memory tier in front (a near cache) that Redis keeps
/// coherent by push: every host drops its copy when any host changes or removes the key.
/// What a server cannot do as a file does is refused with `CacheError/unsupported(feature:reason:)`
/// (see docs/REDIS.md).
///
/// On a Redis Cluster (`redis+cluster://host:port,host:port/`) each command goes to the primary
/// of its slot; a namespace's keys share a hash tag, so each namespace lives on one node and
/// the namespaces spread over the nodes.
///
/// ```swift
/// let store = try RedisStore(url: "redis://127.0.0.1:6379/0")
/// let colors = try store.cache("colors", key: Int.self, value: String.self, policy: .hybrid)
/// try colors.set("red", for: 10)
/// ```
public final class RedisStore: CacheBackend {
    /// The server, as `host:port/db`, or a cluster's seeds as `host:port,host:port` (never the password).
    public let endpoint: String
    /// What every key of this store starts with.
    public var prefix: String { keys.prefix }

    package let options: StoreOptions
    let redisOptions: RedisStoreOptions
    let keys: RedisKeys
    let namespaceKeys: RedisNamespaceKeyCache
    let servers: RedisServers
    let scripts: RedisScripts
    let invalidationRules: CompiledInvalidationRules
    let registry: StatisticsRegistry
    let runtimes = Mutex<[String: NamespaceRuntime]>([:])
    /// Each namespace's generation as a script last saw it, by namespace hash: what the keys
    /// a script is given are named after (a guess; a script asks for the keys it lacks).
    let generations = Mutex<[String: Int64]>([:])
    /// Writes this store's counters and heartbeat under the prefix (nil when statistics are off).
    let telemetry: RedisTelemetry?
    /// Listens for Redis' invalidations (on every primary) once a namespace keeps a memory tier.
    let listener = Mutex<RedisInvalidationListeners?>(nil)
    /// How many pushed invalidations were applied; held while one is applied, so a write can
    /// keep its memory copy only if no push arrived while it was on the wire (see `write(_:in:committed:)`).
    let coherence = Mutex<UInt64>(0)
    private let versionWarnings = Mutex<Set<String>>([])
    private let decodeFailures = Atomic(0)
    private let closed = Atomic(false)

    /// Connects to the server at `url` (`redis://[user:password@]host:port/db`, or
    /// `redis+cluster://[user:password@]host:port,host:port/` for a Redis Cluster; the password
    /// may come from `REDISCLI_AUTH`) and loads the store's scripts.
    ///
    /// Throws a one-line `CacheError`: `CacheError/cannotOpen(path:reason:)` for a bad
    /// URL, `CacheError/unreachable(endpoint:reason:)` when the server does not answer,
    /// `CacheError/authenticationFailed(endpoint:reason:)` for a wrong password, and
    /// `CacheError/unsupported(feature:reason:)` for store-wide size limits (and, on a
    /// cluster, a prefix with `{` or `}`, which would break the namespaces' hash tags).
    public init(url: String, options: StoreOptions = StoreOptions(), redis: RedisStoreOptions = RedisStoreOptions())
        throws
    {
        let isClustered = ClusterURL.isCluster(url)
        if isClustered, redis.prefix.contains(where: { $0 == "{" || $0 == "}" }) {
            throw CacheError.unsupported(
                feature: "a prefix with { or } on Redis Cluster",
                reason: "the store's keys carry their namespace's hash tag; choose a prefix without braces")
        }
        if options.maxEntries != nil || options.maxBytes != nil {
            throw CacheError.unsupported(
                feature: "store-wide maxEntries/maxBytes on Redis",
                reason: "Redis evicts by its own maxmemory-policy; set maxmemory on the server instead")
        }
        self.options = options
        self.redisOptions = redis
        let keys = RedisKeys(prefix: redis.prefix, isClustered: isClustered)
        self.keys = keys
        self.namespaceKeys = RedisNamespaceKeyCache(keys: keys)
        self.invalidationRules = try CompiledInvalidationRules(options.invalidationRules)
        let registry = StatisticsRegistry(isEnabled: options.statistics.isEnabled)
        self.registry = registry
        let servers: RedisServers
        do {
            servers = try RedisServers(
                url: url, environment: redis.environment, poolSize: redis.poolSize, timeout: redis.timeout)
        } catch let error as RedisError {
            throw CacheError(error, endpoint: "Redis")
        }
        self.servers = servers
        let endpoint = servers.description
        self.endpoint = endpoint
        self.scripts = try Self.mapping(endpoint) {
            // A cluster's nodes each load the scripts: EVALSHA on a node that lacks one runs EVAL.
            try servers.withConnection(forKey: keys.namespaces) { connection in
                _ = try connection.command(["PING"])
                return try RedisScripts(loadingOn: connection, isReadOnly: options.readOnly)
            }
        }
        if options.statistics.isEnabled, !options.readOnly, let interval = options.statistics.telemetryInterval {
            telemetry = try Self.mapping(endpoint) {
                try RedisTelemetry(
                    servers: servers, keys: keys, registry: registry, interval: interval, options: options)
            }
        } else {
            telemetry = nil
        }
    }

    deinit {
        listener.withLock { $0?.stop() }
        telemetry?.stop()
    }

    /// Typed values have failed to decode this many times since the store opened (each was a miss).
    public var decodeFailureCount: Int { decodeFailures.load(ordering: .relaxed) }

    // MARK: Handles

    /// A handle on `namespace` whose values are stored by `coder`; see
    /// `CacheStore/cache(_:key:policy:coder:)`. Policies with size limits or write-behind
    /// are refused (`CacheError/unsupported(feature:reason:)`).
    public func cache<Key: Encodable & Sendable, Coder: CacheValueCoder>(
        _ namespace: String, key: Key.Type = Key.self, policy: NamespacePolicy? = nil, coder: Coder
    ) throws -> Cache<Key, Coder.Value> where Coder.Value: Sendable {
        let resolved = policy ?? options.policy(for: namespace, typeDefault: nil)
        try Self.refuseUnsupported(resolved, namespace: namespace)
        let record = try register(namespace, policy: resolved)
        return Cache(backend: self, namespace: record, runtime: try runtime(for: record), coder: coder)
    }

    // MARK: Lifecycle

    /// Stops listening for invalidations, writes the last counters and marks this client
    /// stopped, and closes the connections. Later calls that need the server throw
    /// `CacheError/cannotOpen(path:reason:)`; closing twice does nothing.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        listener.withLock { $0?.stop() }
        telemetry?.finish()
        servers.drain()
    }

    /// Waits until every invalidation Redis pushed before this call (every change any host
    /// made before it) has been applied to this store's memory tiers. It happens on its own
    /// within a round trip; tests and benchmarks call this to know it happened. Throws
    /// `CacheError/unreachable(endpoint:reason:)` when the push does not come within the timeout.
    public func synchronize() throws {
        try listener.withLock({ $0 })?.synchronize(timeout: redisOptions.timeout)
    }

    /// Drops every memory tier's copies (the listeners lost what was pushed meanwhile, or the
    /// slot map changed), counted as a push so a write on the wire keeps no copy.
    func flushMemoryTiers() {
        coherence.withLock { pushes in
            pushes &+= 1
            for runtime in allRuntimes { runtime.memory?.removeAll { _ in true } }
        }
    }

    /// Whether the near-cache listener is subscribed (it reconnects with back-off after a loss).
    public var isListening: Bool { listener.withLock { $0?.isConnected ?? false } }

    // MARK: Internals shared by handles

    func now() -> Int64 { options.clock.nowMilliseconds() }

    package func counters(for namespace: NamespaceRecord) -> NamespaceCounters { registry.counters(for: namespace) }

    package func noteDecodeFailure(namespace: String, key: String, error: any Error) {
        decodeFailures.add(1, ordering: .relaxed)
        options.logger.warning(
            "cached value no longer decodes; treated as a miss",
            metadata: ["namespace": "\(namespace)", "key": "\(key)", "error": "\(error)"])
    }

    /// Runs `body` on a pooled connection to the node serving `key` (on a cluster; the server
    /// otherwise), turning Redis failures into `CacheError`s. What `body` sends must be on
    /// `key`'s slot.
    func redis<T>(_ key: String, _ body: (RedisConnection) throws -> T) throws -> T {
        guard !closed.load(ordering: .acquiring) else {
            throw CacheError.cannotOpen(path: endpoint, reason: "the store is closed")
        }
        if keys.isClustered, let listeners = listener.withLock({ $0 }), listeners.epoch != servers.epoch {
            listeners.follow()
        }
        return try Self.mapping(endpoint) { try servers.withConnection(forKey: key, body) }
    }

    /// Runs `script` on a pooled connection to the node serving its first key (every key of a
    /// script is on one slot). When the script asks for keys `keys` lacks (see
    /// ``RedisScript/declaredKeys``), it runs again with them, a few times at most.
    func run(_ script: RedisScript, keys: [String], arguments: [RedisArgument]) throws -> RedisReply {
        var keys = keys
        for _ in 0..<Self.declarationRounds {
            let reply = try redis(keys[0]) { connection in
                try scripts.run(script, keys: keys, arguments: arguments, on: connection)
            }
            guard let parts = reply.array, let head = parts.first?.array, head.first?.string == "need" else {
                return reply
            }
            if let generation = head.dropFirst().first?.string.flatMap({ Int64($0) }) {
                generations.withLock { $0[keys[0]] = generation }
            }
            keys += parts.dropFirst().compactMap(\.string)
        }
        throw CacheError.serverError(
            endpoint: endpoint,
            message: "a script still lacked keys after \(Self.declarationRounds) rounds (its namespace kept changing)")
    }

    /// How many times `run(_:keys:arguments:)` runs a script that asks for more keys.
    static let declarationRounds = 4

    /// The generation of the namespace whose hash is `hash` as last seen (1 before).
    func generationGuess(_ hash: String) -> Int64 {
        generations.withLock { $0[hash] } ?? 1
    }

    /// Runs `body`, turning a ``RedisError`` into the `CacheError` a caller can act on.
    static func mapping<T>(_ endpoint: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as RedisError {
            throw CacheError(error, endpoint: endpoint)
        }
    }

    /// Warns once per namespace and version that another version owns the namespace now.
    func warnTakenOver(_ runtime: NamespaceRuntime, by version: String) {
        let mine = runtime.record.policy.version
        guard versionWarnings.withLock({ $0.insert("\(runtime.name)\u{0}\(mine)").inserted }) else { return }
        options.logger.warning(
            "namespace taken over by another version; this handle no longer reads or writes the server",
            metadata: ["namespace": "\(runtime.name)", "version": "\(mine)", "server version": "\(version)"])
    }

    // MARK: Namespaces

    var allRuntimes: [NamespaceRuntime] { runtimes.withLock { Array($0.values) } }

    func runtime(named name: String) -> NamespaceRuntime? { runtimes.withLock { $0[name] } }

    /// The runtime shared by handles on `namespace`; the first near cache starts the listener
    /// (subscribed before any copy is kept, so no invalidation is missed).
    private func runtime(for namespace: NamespaceRecord) throws -> NamespaceRuntime {
        let keepsMemory = namespace.policy.tiers.usesMemory
        if namespace.policy.tiers == .memoryAndDisk { try startListening() }
        return NamespaceRuntime.shared(for: namespace, keepsMemory: keepsMemory, in: runtimes) {
            counters(for: namespace)
        }
    }

    private func startListening() throws {
        try listener.withLock { listener in
            guard listener == nil else { return }
            listener = try Self.mapping(endpoint) {
                try RedisInvalidationListeners(store: self)
            }
        }
    }

    /// Records the namespace and its policy; a new version takes the namespace over (a new
    /// generation) and unlinks the old version's entries.
    private func register(_ name: String, policy: NamespacePolicy) throws -> NamespaceRecord {
        if options.readOnly { return NamespaceRecord(id: nil, name: name, policy: policy) }
        try listNamespace(name)
        let reply = try run(
            .register, keys: [keys.namespace(name), keys.retired(name)],
            arguments: [
                RedisArgument(policy.version), RedisArgument(namespaceKeys.of(name, policy: policy).policyJSON),
                RedisArgument(now()), RedisArgument(RedisKeys.escape(name)),
            ])
        let values = reply.array ?? []
        let generation = values.first?.integer ?? 1
        generations.withLock { $0[keys.namespace(name)] = generation }
        if let retired = values.dropFirst().first?.integer, retired > 0 {
            let removed = try unlinkGeneration(retired, of: name)
            options.logger.debug(
                "namespace version changed; old entries unlinked",
                metadata: ["namespace": "\(name)", "version": "\(policy.version)", "removed": "\(removed)"])
        }
        return NamespaceRecord(id: generation, name: name, policy: policy)
    }

    /// Adds `name` to the set of namespaces (before its hash exists, so no namespace goes unlisted).
    func listNamespace(_ name: String) throws {
        _ = try redis(keys.namespaces) { try $0.command(["SADD", RedisArgument(keys.namespaces), RedisArgument(name)]) }
    }

    /// Throws for what a server cannot do as a file does.
    private static func refuseUnsupported(_ policy: NamespacePolicy, namespace: String) throws {
        if policy.maxEntries != nil || policy.maxBytes != nil {
            throw CacheError.unsupported(
                feature: "maxEntries/maxBytes of namespace \(namespace) on Redis",
                reason: "Redis evicts by its own maxmemory-policy; set maxmemory on the server instead")
        }
        if policy.tiers == .memoryAndDisk, policy.writeBehind != nil {
            throw CacheError.unsupported(
                feature: "write-behind of namespace \(namespace) on Redis",
                reason: "every set is one round trip to the server; use a policy without writeBehind")
        }
    }
}

extension CacheError {
    /// The `CacheError` for a Redis failure talking to `endpoint`.
    init(_ error: RedisError, endpoint: String) {
        switch error {
        case .badURL(let reason): self = .cannotOpen(path: "Redis URL", reason: reason)
        case .cannotConnect(let endpoint, let reason): self = .unreachable(endpoint: endpoint, reason: reason)
        case .authenticationFailed(let endpoint, let reason):
            self = .authenticationFailed(endpoint: endpoint, reason: reason)
        case .timeout(let endpoint):
            self = .unreachable(endpoint: endpoint, reason: "no whole reply within the timeout")
        case .connectionLost(let endpoint, let reason): self = .unreachable(endpoint: endpoint, reason: reason)
        case .outOfMemory(let message): self = .serverOutOfMemory(endpoint: endpoint, reason: message)
        case .replyTooLarge: self = .serverError(endpoint: endpoint, message: error.description)
        case .server(let message):
            // A script's error reply carries the command's own error after "ERR … script: …".
            if message.contains("OOM ") {
                self = .serverOutOfMemory(endpoint: endpoint, reason: message)
            } else {
                self = .serverError(endpoint: endpoint, message: message)
            }
        }
    }
}
