import CacheCore
import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

/// `kill -9` of `cachedeck restore` mid-way (issue #27): the action stays restorable and the
/// next restore finishes it. Runs on each server kind the hardening tests cover.
@Suite("Redis: a killed restore", .enabled(if: redisAvailable))
struct RedisKilledUndoTests {
    /// How many trash keys action `id` still has.
    func trashLeft(_ server: RedisServer, _ id: Int64) throws -> Int {
        Int(
            try server.cli(
                "EVAL", "#!lua flags=no-writes\nreturn #redis.call('KEYS', ARGV[1])", "0", "cachedeck:trash:\(id):*"))
            ?? -1
    }

    @Test func aSecondRestoreFinishesWhatAKilledOneBegan() throws {
        let server = try RedisServer()
        let folder = try TemporaryFolder()
        let store = try openStore(on: server)
        defer { store.close() }
        let tiles = try store.cache("tiles", key: String.self, value: String.self)
        let total = 30_000
        try tiles.set((0..<total).map { (key: "t\($0)", value: "v\($0)") })

        // Kill the restore once it has moved some but not all of the trash back; a run that
        // finished before the kill landed is put back in the trash and tried again.
        var killed: Int64?
        for _ in 0..<5 where killed == nil {
            let moved = try store.admin.run(.invalidate(.prefix(namespace: "tiles", prefix: "")))
            let restore = try CLIProcess(["restore", server.url, "\(moved.auditID)"], folder: folder)
            let deadline = ContinuousClock.now + .seconds(60)
            while try trashLeft(server, moved.auditID) == total && ContinuousClock.now < deadline {}
            restore.signal(SIGKILL)
            _ = try? restore.wait()
            let left = try trashLeft(server, moved.auditID)
            if left > 0 && left < total {
                killed = moved.auditID
            } else if left == total {
                try store.admin.restore(moved.auditID)  // killed before it began
            }
        }
        let id = try #require(killed, "no kill landed mid-restore in 5 tries")
        #expect(try tiles.count() < total)

        let again = try CLIProcess(["restore", server.url, "\(id)"], folder: folder).wait()
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try trashLeft(server, id) == 0 && tiles.count() == total)
        let record = try #require(try store.admin.auditRecord(id))
        #expect(record.undoneAt != nil && !record.canUndo)
    }
}
