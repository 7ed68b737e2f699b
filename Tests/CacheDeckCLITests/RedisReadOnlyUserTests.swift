import CacheCore
import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

/// The docs' read-only ACL user (`+@read +@connection +info`) against a RedisStore (issue #27):
/// reading commands work, and a refused action says what the server said (not a refused login).
/// On a standalone server and on a private Redis Cluster (the user set on every node, and
/// allowed `CLUSTER SLOTS` too).
@Suite("Redis: a read-only ACL user", .enabled(if: redisAvailable))
struct RedisReadOnlyUserTests {
    @Test(arguments: [false, true])
    func auditWorksAndARefusedActionReportsNOPERM(onCluster: Bool) throws {
        let server = onCluster ? nil : try RedisServer()
        let cluster = onCluster ? try RedisCluster(primaries: 3, replicasEach: 0) : nil
        let adminURL = try #require(server?.url ?? cluster?.url)
        let folder = try TemporaryFolder()
        var options = StoreOptions()
        options.statistics = .disabled
        let store = try RedisStore(url: adminURL, options: options, redis: RedisStoreOptions(environment: [:]))
        defer { store.close() }
        let colors = try store.cache("colors", key: String.self, value: String.self)
        try colors.set("red", for: "r")
        let cleared = try store.admin.run(.clear(namespace: "colors"))
        let nodes = try cluster?.nodes ?? [try #require(server)]
        for node in nodes {
            #expect(
                try node.cli(
                    "ACL", "SETUSER", "browser", "on", ">S3cret", "~*", "-@all", "+@read", "+@connection", "+info")
                    == "OK")
        }
        let url = adminURL.replacingOccurrences(of: "://", with: "://browser:S3cret@")
        if onCluster {
            // A cluster client reads the slot map, which `CLUSTER SLOTS` (in no category but
            // `@slow`) gives: refused, in the server's words, until the user may run it.
            let unmapped = try CLIProcess(["audit", url], folder: folder).wait()
            #expect(unmapped.status == 1 && unmapped.errorLines.count == 1, "\(unmapped.stderr)")
            #expect(unmapped.stderr.contains("NOPERM") && unmapped.stderr.contains("cluster|slots"))
            #expect(!unmapped.stderr.contains("refused the") && !unmapped.stderr.contains("S3cret"))
            for node in nodes { #expect(try node.cli("ACL", "SETUSER", "browser", "+cluster|slots") == "OK") }
        }

        let audit = try CLIProcess(["audit", url, "--json"], folder: folder).wait()
        #expect(audit.status == 0, "\(audit.stderr)")
        let records = try #require(try audit.json() as? [[String: Any]])
        #expect(records.first?["id"] as? Int == Int(cleared.auditID) && records.first?["entries"] as? Int == 1)

        let refused = try CLIProcess(["restore", url, "\(cleared.auditID)"], folder: folder).wait()
        #expect(refused.status == 1 && refused.errorLines.count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("NOPERM") && !refused.stderr.contains("refused the"), "\(refused.stderr)")
        #expect(try colors.count() == 0)
    }
}
