import CacheCore
import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

/// The docs' read-only ACL user (`+@read +@connection +info`) against a RedisStore (issue #27):
/// reading commands work, and a refused action says what the server said (not a refused login).
@Suite("Redis: a read-only ACL user", .enabled(if: redisAvailable))
struct RedisReadOnlyUserTests {
    @Test func auditWorksAndARefusedActionReportsNOPERM() throws {
        let server = try RedisServer()
        let folder = try TemporaryFolder()
        let store = try openStore(on: server)
        defer { store.close() }
        let colors = try store.cache("colors", key: String.self, value: String.self)
        try colors.set("red", for: "r")
        let cleared = try store.admin.run(.clear(namespace: "colors"))
        #expect(
            try server.cli(
                "ACL", "SETUSER", "browser", "on", ">S3cret", "~*", "-@all", "+@read", "+@connection", "+info")
                == "OK")
        let url = "redis://browser:S3cret@127.0.0.1:\(server.port)/0"

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
