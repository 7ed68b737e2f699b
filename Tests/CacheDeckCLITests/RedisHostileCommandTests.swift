import CacheCore
import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Synchronization
import Testing

/// `keys`, `key` and `info` against a hostile server, passwords, and URLs that are not paths
/// (issue #27), through the binary; the fake also poses as a one-node cluster (`redis+cluster://`).
@Suite("Redis commands against hostile servers and secrets")
struct RedisHostileCommandTests {
    typealias Fake = FakeRedisServer
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CLIResult {
        try CLIProcess(arguments, folder: folder).wait()
    }

    @Test(arguments: [false, true]) func int64ExtremesFromTheServerArePrintedNotCrashedOn(onCluster: Bool) throws {
        let fake = try Fake(cluster: onCluster) { command in
            if let login = Fake.login(command, keys: 1) { return login }
            return switch command[0].uppercased() {
            case "SCAN": .bytes(Fake.array([Fake.bulk("0"), Fake.array([Fake.bulk("big")])]))
            case "TYPE": .bytes(Fake.status("string"))
            case "PTTL", "MEMORY": .bytes(Fake.integer(.max))
            case "OBJECT": .bytes(Fake.bulk("raw"))
            case "STRLEN": .bytes(Fake.integer(.max))
            case "GETRANGE": .bytes(Fake.bulk("v"))
            default: .bytes(Fake.error("ERR unscripted"))
            }
        }
        defer { fake.stop() }
        for arguments in [["keys", fake.url], ["key", fake.url, "big"]] {
            let result = try run(arguments)
            #expect(result.status == 0 && result.stdout.contains("big"), "\(arguments[0]): \(result.stderr)")
        }
    }

    /// On a cluster, `info` only: `keys` and `key` reach the same deadline through the router
    /// in RedisHostileServerTests, and each run here waits out a 5 s timeout.
    @Test(arguments: [false, true])
    func aTricklingServerEndsEachCommandAtItsDeadlineAndThePasswordLeavesPs(onCluster: Bool) throws {
        let asked = Mutex<Set<String>>([])
        let fake = try Fake(cluster: onCluster) { command in
            asked.withLock { _ = $0.insert(command[0].uppercased()) }
            return Fake.login(command)
                ?? .trickle(Fake.bulk(String(repeating: "x", count: 10_000)), interval: .milliseconds(20))
        }
        defer { fake.stop() }
        let url = fake.url.replacingOccurrences(of: "://", with: "://:S3cretAdminPw@")
        for command in onCluster ? ["info"] : ["info", "keys", "key"] {
            let process = try CLIProcess([command, url] + (command == "key" ? ["k"] : []), folder: folder)
            if command == "info" {
                // Once it has logged in (and parsed its arguments), `ps` no longer shows the password.
                try process.waitForOutput("nothing") { _ in asked.withLock { $0.contains("INFO") } }
                #expect(!process.commandLine.contains("S3cretAdminPw") && process.commandLine.contains("127.0.0.1"))
            }
            let result = try process.wait()  // a reply of 200 s; the timeout is for the whole of it
            #expect(result.status == 1 && result.errorLines.count == 1, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("did not send a whole reply in time") && !result.stderr.contains("S3cret"))
        }
    }

    @Test(arguments: [
        ["keys", "redis://:S3cretAdminPw@/0"], ["keys", "redis://:S3cretAdminPw@[::1/0"],
        ["info", "redis://admin:S3cretAdminPw@host:99999/0"], ["ls", "redis://:S3cretAdminPw@127.0.0.1:1/0", "ns"],
        ["keys", "--no-such-option", "redis://:S3cretAdminPw@127.0.0.1:1/0"],
    ])
    func aPasswordIsNeverPrinted(_ arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status != 0 && !result.stderr.isEmpty)
        #expect(
            !result.stderr.contains("S3cretAdminPw") && !result.stdout.contains("S3cretAdminPw"), "\(result.stderr)")
    }

    @Test func anArgumentThatLooksLikeAURLIsNeverTakenAsAPath() throws {
        let result = try CLIProcess(
            ["demo", "redis+cluster://127.0.0.1:1", "--scale", "0.001"], folder: folder
        ).wait()
        #expect(result.status != 0 && result.errorLines.count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "redis+cluster:"))
        #expect(result.stderr.contains("127.0.0.1:1"))
    }

    /// On a cluster, the seed answers `CLUSTER SLOTS` with LOADING too.
    @Test(arguments: [false, true]) func aServerStillLoadingIsReportedAsLoadingNotAsARefusedLogin(onCluster: Bool) throws {
        let fake = try Fake { command in
            switch command[0].uppercased() {
            case "AUTH": .bytes(Fake.status("OK"))
            default: .bytes(Fake.error("LOADING Redis is loading the dataset in memory"))
            }
        }
        defer { fake.stop() }
        let url = (onCluster ? fake.clusterURL : fake.url).replacingOccurrences(of: "://", with: "://:S3cretAdminPw@")
        let result = try run(["info", url])
        #expect(result.status == 1 && result.errorLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("LOADING") && !result.stderr.contains("refused"), "\(result.stderr)")
    }
}
