@testable import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// The kinds of server the hardening and action tests run on. A test that takes one as its
/// argument runs on each; `.cluster` uses the suite's ``SharedCluster`` (the suite needs the
/// `.sharedCluster` trait), each fixture under a prefix of its own.
enum RedisDeployment: String, CaseIterable, Sendable {
    case standalone
    case cluster
}

/// A private server, or a prefix of its own on the suite's cluster, and what tests open there.
struct RedisFixture {
    let deployment: RedisDeployment
    private let standalone: RedisServer?
    private let sharedCluster: RedisCluster?
    /// The store's key names (its prefix is the fixture's own on a cluster).
    let keys: RedisKeys
    let clock = ManualClock()

    init(_ deployment: RedisDeployment = .standalone, password: String? = nil, maxMemory: String? = nil) throws {
        self.deployment = deployment
        switch deployment {
        case .standalone:
            standalone = try RedisServer(password: password, maxMemory: maxMemory)
            sharedCluster = nil
            keys = RedisKeys(prefix: RedisStoreOptions.defaultPrefix)
        case .cluster:
            precondition(password == nil && maxMemory == nil, "the shared cluster has no password and no limit")
            standalone = nil
            sharedCluster = try SharedCluster.cluster()
            keys = RedisKeys(prefix: "f\(UUID().uuidString.prefix(8)):", isClustered: true)
        }
    }

    /// The standalone server (tests that stop it or read its port run on a standalone server only).
    var server: RedisServer {
        guard let standalone else { preconditionFailure("a cluster fixture has no single server: use cli(_:_:_:)") }
        return standalone
    }

    /// The URL stores open.
    var url: String { standalone?.url ?? sharedCluster?.url ?? "" }

    /// The node serving `key`: the server itself when standalone.
    func node(serving key: String) throws -> RedisServer {
        guard let cluster = sharedCluster else { return server }
        let port = try cluster.primaryPort(ofSlot: ClusterSlot.of(Array(key.utf8)))
        return try #require(cluster.node(port: port), "no node on \(port)")
    }

    /// Runs `redis-cli command key arguments…` on the node serving `key` (as another tool would).
    @discardableResult
    func cli(_ command: String, _ key: String, _ arguments: String...) throws -> String {
        try node(serving: key).cli([command, key] + arguments)
    }

    /// A raw connection to each primary (the server itself when standalone).
    func primaries() throws -> [RedisConnection] {
        try (sharedCluster?.primaries() ?? [server]).map { node in
            try RedisConnection(endpoint: try RedisEndpoint(url: node.url, environment: [:]), timeout: .seconds(2))
        }
    }

    /// Store options with the fixture's clock, quiet telemetry (written on demand) and no
    /// swift-metrics.
    func options(clock: (any CacheClock)? = nil, rules: InvalidationRules = InvalidationRules()) -> StoreOptions {
        var options = StoreOptions(clock: clock ?? self.clock, invalidationRules: rules)
        options.statistics.telemetryInterval = .seconds(3600)
        options.statistics.metrics = .off
        return options
    }

    func open(
        clock: (any CacheClock)? = nil, rules: InvalidationRules = InvalidationRules(),
        redis: RedisStoreOptions = RedisStoreOptions(environment: [:])
    ) throws -> RedisStore {
        var redis = redis
        redis.prefix = keys.prefix
        return try RedisStore(url: url, options: options(clock: clock, rules: rules), redis: redis)
    }

    /// Runs `body` with two stores on the wall clock (two hosts of one shared cache), closed
    /// afterwards: what one changes, the other's near cache must follow.
    func withTwoHosts<T>(_ body: (RedisStore, RedisStore) throws -> T) throws -> T {
        let a = try open(clock: SystemClock())
        let b = try open(clock: SystemClock())
        defer {
            a.close()
            b.close()
        }
        return try body(a, b)
    }

    /// A raw connection to the node serving `key` (the server when standalone), as another tool would use it.
    func connection(forKey key: String = "") throws -> RedisConnection {
        let node = try node(serving: key)
        return try RedisConnection(endpoint: try RedisEndpoint(url: node.url, environment: [:]), timeout: .seconds(2))
    }
}


/// Whether `error` is the ``CacheError`` `matches` accepts and reads as one line.
func isOneLine(_ error: any Error, _ matches: (CacheError) -> Bool) -> Bool {
    guard let error = error as? CacheError else { return false }
    return matches(error) && !"\(error)".contains("\n")
}
