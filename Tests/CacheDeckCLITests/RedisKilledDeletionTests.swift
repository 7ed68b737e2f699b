import CacheDeckTestSupport
import Foundation
import Testing

/// `kill -9` of `cachedeck del --prefix` between batches (issue #28): the log lists exactly
/// the keys its trash holds, and the undo brings back exactly the keys that were gone; on a
/// standalone server and on a Redis Cluster, where the keys spread over slots on every primary.
@Suite("Redis: a killed deletion", .enabled(if: redisAvailable))
struct RedisKilledDeletionTests {
    /// Keys `user:{T}:I`: `tags` hash tags (slots), `each` keys in each.
    static let tags = 60
    static let each = 500

    /// Writes the keys, one script per hash tag on the node serving it (`-c` follows MOVED).
    func fill(_ node: RedisServer) throws {
        for tag in 0..<Self.tags {
            try node.cli(
                "-c", "EVAL", "for i = 1, \(Self.each) do redis.call('SET', 'user:{\(tag)}:' .. i, i) end", "1",
                "user:{\(tag)}:0")
        }
    }

    /// How many keys under `user:` the primaries hold.
    func left(_ primaries: [RedisServer]) throws -> Int {
        try primaries.reduce(0) { sum, node in
            let count = try node.cli("EVAL", "#!lua flags=no-writes\nreturn #redis.call('KEYS', 'user:*')", "0")
            return sum + (Int(count) ?? -1_000_000)
        }
    }

    @Test(arguments: [false, true])
    func aKilledDeletionListsAndRestoresExactlyWhatWasGone(onCluster: Bool) throws {
        let server = onCluster ? nil : try RedisServer()
        let cluster = onCluster ? try RedisCluster() : nil
        let url = try #require(server?.url ?? cluster?.url)
        let primaries = try cluster?.primaries() ?? [try #require(server)]
        let folder = try TemporaryFolder()
        try fill(primaries[0])
        let total = Self.tags * Self.each
        #expect(try left(primaries) == total)

        // Kill the deletion once it has moved some keys but not all; one that had not begun
        // or had finished is undone and tried again.
        var killed: (id: Int64, gone: Int)?
        for _ in 0..<5 where killed == nil {
            let deletion = try CLIProcess(["del", url, "--prefix", "user:", "--yes"], folder: folder)
            let deadline = ContinuousClock.now + .seconds(30)
            while try left(primaries) == total && ContinuousClock.now < deadline {}
            deletion.signal(SIGKILL)
            _ = try deletion.wait()
            let gone = total - (try left(primaries))
            let audit = try CLIProcess(["audit", url, "--json"], folder: folder).wait()
            let newest = (try audit.json() as? [[String: Any]])?.first
            guard let id = (newest?["id"] as? Int).map(Int64.init), gone > 0 else { continue }
            if gone < total {
                killed = (id, gone)
                #expect(newest?["finishedAt"] == nil, "killed before it finished")
                #expect(newest?["entries"] as? Int == gone, "the log lists what the trash holds")
            } else {
                #expect(try CLIProcess(["restore", url, "\(id)"], folder: folder).wait().status == 0)
            }
        }
        let (id, gone) = try #require(killed, "no kill landed mid-deletion in 5 tries")
        let restore = try CLIProcess(["restore", url, "\(id)"], folder: folder).wait()
        let said = restore.stdout.filter { $0 != "," }
        #expect(restore.status == 0 && said.contains("Restored \(gone) keys of deletion #\(id)"), "\(restore.stdout)\(restore.stderr)")
        #expect(try left(primaries) == total)
    }
}
