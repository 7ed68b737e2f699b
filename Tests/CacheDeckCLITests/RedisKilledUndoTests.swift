import CacheCore
import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

/// `kill -9` of `cachedeck restore` mid-way (issue #27): the action stays restorable and the
/// next restore finishes it. On a standalone server and on a Redis Cluster (#28), where the
/// action spans three namespaces on the primaries, so a kill may land between slots.
@Suite("Redis: a killed restore", .enabled(if: redisAvailable))
struct RedisKilledUndoTests {
    /// How many trash keys action `id` still has on `primaries`.
    func trashLeft(_ primaries: [RedisServer], _ id: Int64) throws -> Int {
        try primaries.reduce(0) { sum, node in
            let left = try node.cli(
                "EVAL", "#!lua flags=no-writes\nreturn #redis.call('KEYS', ARGV[1])", "0", "cachedeck:trash:\(id):*")
            return sum + (Int(left) ?? -1)
        }
    }

    @Test(arguments: [false, true])
    func aSecondRestoreFinishesWhatAKilledOneBegan(onCluster: Bool) throws {
        let server = onCluster ? nil : try RedisServer()
        let cluster = onCluster ? try RedisCluster() : nil
        let url = try #require(server?.url ?? cluster?.url)
        let primaries = try cluster?.primaries() ?? [try #require(server)]
        let folder = try TemporaryFolder()
        var options = StoreOptions()
        options.statistics = .disabled
        let store = try RedisStore(url: url, options: options, redis: RedisStoreOptions(environment: [:]))
        defer { store.close() }
        let names = onCluster ? ["tiles", "users", "pages"] : ["tiles"]
        let total = 30_000
        let caches = try names.map { name in
            let cache = try store.cache(name, key: String.self, value: String.self)
            try cache.set((0..<(total / names.count)).map { (key: "t\($0)", value: "v\($0)", tags: ["all"]) })
            return cache
        }
        func count() throws -> Int { try caches.reduce(0) { try $0 + $1.count() } }

        // Kill the restore once it has moved some but not all of the trash back; a run that
        // finished before the kill landed is put back in the trash and tried again.
        var killed: Int64?
        for _ in 0..<5 where killed == nil {
            let moved = try store.admin.run(.invalidate(.tag("all")))
            let restore = try CLIProcess(["restore", url, "\(moved.auditID)"], folder: folder)
            let deadline = ContinuousClock.now + .seconds(60)
            while try trashLeft(primaries, moved.auditID) == total && ContinuousClock.now < deadline {}
            restore.signal(SIGKILL)
            _ = try? restore.wait()
            let left = try trashLeft(primaries, moved.auditID)
            if left > 0 && left < total {
                killed = moved.auditID
            } else if left == total {
                try store.admin.restore(moved.auditID)  // killed before it began
            }
        }
        let id = try #require(killed, "no kill landed mid-restore in 5 tries")
        #expect(try count() < total)
        #expect(try store.admin.auditRecord(id)?.canUndo == true)

        let again = try CLIProcess(["restore", url, "\(id)"], folder: folder).wait()
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try trashLeft(primaries, id) == 0 && count() == total)
        let record = try #require(try store.admin.auditRecord(id))
        #expect(record.undoneAt != nil && !record.canUndo)
    }
}
