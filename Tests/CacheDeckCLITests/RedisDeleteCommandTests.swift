import CacheCore
import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

/// `cachedeck del URL --key K | --prefix P` on a keyspace no RedisStore wrote: the preview,
/// `--dry-run`, `--yes`, the log (`audit`) and the undo (`restore`), through the binary.
@Suite("Redis del command", .enabled(if: redisAvailable))
struct RedisDeleteCommandTests {
    let server: RedisServer
    let folder: TemporaryFolder

    init() throws {
        server = try RedisServer()
        folder = try TemporaryFolder()
        try server.cli("MSET", "user:1", "alice", "user:2", "bob", "user:admin:1", "root", "plain", "x")
        try server.cli("PEXPIRE", "user:1", "3600000")
    }

    func run(_ arguments: String...) throws -> CLIResult {
        try run(arguments)
    }

    func run(_ arguments: [String]) throws -> CLIResult {
        try CLIProcess(arguments, folder: folder).wait()
    }

    func memory(_ keys: String...) throws -> Int {
        try keys.reduce(0) { $0 + (try #require(Int(try server.cli("MEMORY", "USAGE", $1)))) }
    }

    @Test func aPrefixIsPreviewedDeletedListedAndRestored() throws {
        let bytes = try memory("user:1", "user:2", "user:admin:1")
        let dry = try run("del", server.url, "--prefix", "user:", "--dry-run", "--json").object()
        let target = try #require((dry["target"] as? [String: Any])?["deleteKeys"] as? [String: Any], "\(dry)")
        #expect((target["selector"] as? [String: Any])?["prefix"] != nil, "\(target)")
        let impact = try #require(dry["impact"] as? [String: Any])
        #expect(impact["entries"] as? Int == 3 && impact["bytes"] as? Int == bytes)
        #expect(try server.cli("EXISTS", "user:1", "user:2", "user:admin:1") == "3", "a dry run changes nothing")

        let refused = try run("del", server.url, "--prefix", "user:")
        #expect(refused.status == 1 && refused.errorLines.count == 1 && refused.stderr.contains("without --yes"))

        let done = try run("del", server.url, "--prefix", "user:", "--yes")
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stdout.contains("Deleted 3 keys") && done.stdout.contains("cachedeck restore \(server.url) 1"))
        #expect(try server.cli("EXISTS", "user:1", "user:2", "user:admin:1") == "0" && server.cli("GET", "plain") == "x")

        let audit = try run("audit", server.url)
        let row = try #require(audit.stdout.split(separator: "\n").first { $0.hasPrefix("#1 ") }, "\(audit.stdout)")
        #expect(row.contains("delete 3 keys under prefix 'user:'") && row.contains(" 3 ") && row.hasSuffix("restore 1"))

        let restored = try run("restore", server.url, "1")
        #expect(restored.status == 0 && restored.stdout.contains("Restored 3"), "\(restored.stderr)")
        #expect(try server.cli("GET", "user:2") == "bob")
        #expect((3_500_000...3_600_000).contains(Int(try server.cli("PTTL", "user:1")) ?? 0))
        let again = try run("restore", server.url, "1")
        #expect(again.status == 1 && again.errorLines.count == 1 && again.stderr.contains("already undone"))
    }

    @Test func keysAndBadInputGetOneLine() throws {
        let two = try run("del", server.url, "--key", "plain", "--key", "user:2", "--key", "nope", "--yes", "--json").object()
        #expect(two["removed"] as? Int == 2)
        #expect(try server.cli("EXISTS", "plain", "user:2") == "0")

        for arguments in [["--key", "a", "--prefix", "b"], [], ["--prefix", ""]] {
            let usage = try CLIProcess(["del", server.url] + arguments, folder: folder).wait()
            #expect(usage.status == 2 && usage.errorLines.count >= 1, "\(arguments): \(usage.stderr)")
        }
    }

    /// Sessions beside a RedisStore: its keys are refused in one line naming it, the others
    /// are deleted; one log lists the store's actions and the deletions, and undoes each.
    @Test func aStoresKeysAreRefusedAndTheOthersDeletedBesideIt() throws {
        var options = StoreOptions()
        options.statistics = .disabled
        let store = try RedisStore(url: server.url, options: options, redis: RedisStoreOptions(environment: [:]))
        defer { store.close() }
        let colors = try store.cache("colors", key: String.self, value: String.self)
        try colors.set([(key: "red", value: "#f00", tags: []), (key: "blue", value: "#00f", tags: [])])
        let cleared = try store.admin.run(.clear(namespace: "colors"))
        let storeKey = try #require(try server.cli("--scan", "--pattern", "cachedeck:*").split(separator: "\n").first)

        for refused in [["--key", String(storeKey)], ["--prefix", "cachedeck:e:"], ["--prefix", "cache"]] {
            let result = try run(["del", server.url, "--yes"] + refused)
            #expect(result.status == 1 && result.errorLines.count == 1, "\(refused): \(result.stderr)")
            #expect(result.stderr.contains("the RedisStore under cachedeck:") && result.stderr.contains("cachedeck clear"))
        }
        #expect(try server.cli("EXISTS", String(storeKey)) == "1")

        let done = try run(["del", server.url, "--prefix", "user:", "--yes", "--json"]).object()
        #expect(done["removed"] as? Int == 3 && done["isUndoable"] as? Bool == true)
        let id = try #require(done["auditID"] as? Int)
        #expect(Int64(id) != cleared.auditID, "one sequence for both logs")
        #expect(try server.cli("EXISTS", "user:1", "user:2", "user:admin:1") == "0" && server.cli("GET", "plain") == "x")

        let audit = try run(["audit", server.url])
        #expect(audit.stdout.contains("#\(id) ") && audit.stdout.contains("delete 3 keys under prefix 'user:'"))
        #expect(audit.stdout.contains("#\(cleared.auditID) ") && audit.stdout.contains("clear colors"), "\(audit.stdout)")
        let restored = try run(["restore", server.url, "\(id)"])
        #expect(restored.status == 0 && restored.stdout.contains("Restored 3"), "\(restored.stderr)")
        #expect(try server.cli("GET", "user:2") == "bob" && colors.count() == 0)
        let undone = try run(["restore", server.url, "\(cleared.auditID)"])
        #expect(try undone.status == 0 && colors.count() == 2, "\(undone.stderr)")
    }
}
