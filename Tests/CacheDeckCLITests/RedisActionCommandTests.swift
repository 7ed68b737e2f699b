import CacheCore
import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

/// clear, invalidate, restore (undo) and audit on a RedisStore, through the binary.
@Suite("Redis action commands", .enabled(if: redisAvailable))
struct RedisActionCommandTests {
    let server: RedisServer
    let folder: TemporaryFolder
    let store: RedisStore
    let colors: Cache<String, String>

    init() throws {
        server = try RedisServer()
        folder = try TemporaryFolder()
        var options = StoreOptions()
        options.statistics = .disabled
        store = try RedisStore(url: server.url, options: options, redis: RedisStoreOptions(environment: [:]))
        colors = try store.cache("colors", key: String.self, value: String.self)
        for index in 0..<12 { try colors.set("v\(index)", for: "k\(index)", tags: index < 4 ? ["warm"] : []) }
    }

    func run(_ arguments: String...) throws -> CLIResult {
        try CLIProcess(arguments, folder: folder).wait()
    }

    @Test func clearIsPreviewedConfirmedAuditedAndUndone() throws {
        let refused = try run("clear", server.url, "colors")
        #expect(refused.status == 1 && refused.stderr.contains("refusing to clear colors without --yes"))
        let dryRun = try run("clear", server.url, "colors", "--dry-run", "--json").object()
        let impact = try #require(dryRun["impact"] as? [String: Any])
        #expect(impact["entries"] as? Int == 12 && impact["recentHitShare"] is NSNull)
        #expect(try colors.count() == 12)

        let clear = try run("clear", server.url, "colors", "--yes", "--json").object()
        #expect(
            Set(clear.keys) == [
                "auditID", "removed", "bytes", "isUndoable", "isCancelled", "wasDiskFull", "notRemoved", "isAudited",
            ])
        #expect(clear["removed"] as? Int == 12 && clear["isUndoable"] as? Bool == true)
        let id = try #require(clear["auditID"] as? Int)
        #expect(try colors.count() == 0)

        let audit = try #require(try run("audit", server.url, "--json").json() as? [[String: Any]])
        let record = try #require(audit.first)
        #expect(record["id"] as? Int == id && record["entries"] as? Int == 12 && record["canUndo"] as? Bool == true)
        #expect((record["origin"] as? [String: Any])?["program"] as? String == "cachedeck")
        let table = try run("audit", server.url)
        #expect(table.status == 0 && table.stdout.contains("clear colors") && table.stdout.contains("restore \(id)"))

        let undo = try run("undo", server.url, "\(id)", "--json").object()
        #expect(undo["restored"] as? Int == 12)
        #expect(try colors.get("k3") == "v3" && colors.count() == 12)
        let again = try run("restore", server.url, "\(id)")
        #expect(
            again.status == 1 && again.errorLines == ["cachedeck: cannot restore: action #\(id) was already undone"])
    }

    @Test func invalidateNamesTheUndoCommandAndMissingNamespacesFailInOneLine() throws {
        let invalidate = try run("invalidate", server.url, "colors", "--tag", "warm", "--yes")
        #expect(invalidate.status == 0, "\(invalidate.stderr)")
        let id = try #require(try store.admin.auditLog().first?.id)
        #expect(
            invalidate.stdout.hasPrefix("Removed 4 entries")
                && invalidate.stdout.hasSuffix(
                    "Undo with: cachedeck restore redis://127.0.0.1:\(server.port)/0 \(id)\n")
        )
        #expect(try colors.count() == 8)
        #expect(try run("restore", server.url, "\(id)").stdout == "Restored 4 entries of action #\(id).\n")
        #expect(try colors.count() == 12)

        let missing = try run("clear", server.url, "nope", "--yes")
        #expect(missing.status == 1 && missing.errorLines == ["cachedeck: no namespace named 'nope'"])
        let other = try run("clear", server.url, "colors", "--yes", "--redis-prefix", "elsewhere:")
        #expect(other.status == 1 && other.errorLines == ["cachedeck: no namespace named 'colors'"])
        #expect(try colors.count() == 12)
    }

    @Test func ttlAndExpireChangeWhenEntriesExpireAndRestoreUndoesIt() throws {
        let ttl = try run("ttl", server.url, "colors", "1h", "--key", "k1", "--yes", "--json").object()
        #expect(ttl["removed"] as? Int == 1 && ttl["isUndoable"] as? Bool == true)
        let left = try #require(Int(try server.cli("PTTL", "cachedeck:e:colors:1:k1")))
        #expect(left > 3_500_000 && left <= 3_600_000 + 3_600_000, "an hour, then the stale window")

        let expire = try run("expire", server.url, "colors", "--tag", "warm", "--yes")
        #expect(expire.status == 0 && expire.stdout.hasPrefix("Changed the expiry of 4 entries"), "\(expire.stderr)")
        #expect(try colors.get("k0") == nil && colors.count() == 8)
        let audit = try run("audit", server.url).stdout
        #expect(audit.contains("expire now of tag warm") && audit.contains("set TTL 1h of key colors/k1"))

        let id = try #require(try store.admin.auditLog().first?.id)
        #expect(try run("restore", server.url, "\(id)").stdout == "Restored 4 entries of action #\(id).\n")
        #expect(try colors.get("k0") == "v0" && colors.count() == 12)
        let bad = try run("ttl", server.url, "colors", "soon", "--key", "k1")
        #expect(bad.status == 2 && bad.stderr.contains("bad duration 'soon'"))
    }
}
