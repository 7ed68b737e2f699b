import CacheDeckTestSupport
import Testing

/// One Redis Cluster (three primaries, three replicas) for a whole suite, since starting one
/// takes seconds: the trait starts it around the suite's tests, which find it as
/// `SharedCluster.current`, and stops it after the last.
struct SharedCluster: SuiteTrait, TestScoping {
    @TaskLocal static var current: RedisCluster?

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let cluster = try RedisCluster()
        defer { cluster.stop() }
        try await Self.$current.withValue(cluster) { try await function() }
    }

    /// The suite's cluster (a test outside a suite with the trait fails here).
    static func cluster() throws -> RedisCluster {
        try #require(current, "the suite needs the .sharedCluster trait")
    }
}

extension Trait where Self == SharedCluster {
    /// Starts one Redis Cluster for the suite's tests.
    static var sharedCluster: Self { SharedCluster() }
}
