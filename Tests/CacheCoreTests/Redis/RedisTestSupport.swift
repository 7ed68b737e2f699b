@testable import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// The kinds of server the hardening tests run on. A test that takes one as its argument
/// runs on each; Redis Cluster (issue #28) joins as a case that starts a cluster.
enum RedisDeployment: String, CaseIterable, Sendable {
    case standalone
}

/// A private server and what tests open on it.
struct RedisFixture {
    let server: RedisServer
    let clock = ManualClock()

    init(_ deployment: RedisDeployment = .standalone, password: String? = nil, maxMemory: String? = nil) throws {
        switch deployment {
        case .standalone: server = try RedisServer(password: password, maxMemory: maxMemory)
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
        try RedisStore(url: server.url, options: options(clock: clock, rules: rules), redis: redis)
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

    /// A raw connection to the server (as another tool would use it).
    func connection() throws -> RedisConnection {
        try RedisConnection(endpoint: try RedisEndpoint(url: server.url, environment: [:]), timeout: .seconds(2))
    }
}


/// Whether `error` is the ``CacheError`` `matches` accepts and reads as one line.
func isOneLine(_ error: any Error, _ matches: (CacheError) -> Bool) -> Bool {
    guard let error = error as? CacheError else { return false }
    return matches(error) && !"\(error)".contains("\n")
}
