import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore
@testable import CacheCoreRedis

/// Deleting keys of a keyspace no RedisStore wrote (issue #28): the preview's keys are the
/// ones deleted, each kept with its expiry for the undo, which brings back every key nothing
/// wrote since; on a real redis-server and on a real 3 + 3 cluster.
@Suite("Deleting keys of a Redis keyspace", .enabled(if: redisAvailable))
struct RedisKeyDeletionTests {
    static let namespace = RedisKeyspaceAdmin.namespace

    static func prefix(_ text: String) -> AdminTarget { .deleteKeys(.prefix(namespace: namespace, prefix: text)) }

    @Test func aPrefixIsDeletedAsPreviewedAndComesBackWithItsExpiry() throws {
        let server = try RedisServer()
        for index in 1...5 { try server.cli("SET", "user:\(index)", "v\(index)") }
        try server.cli("PEXPIRE", "user:3", "3600000")
        try server.cli("HSET", "user:h", "name", "carol")
        try server.cli("SET", "other", "x")
        let memory = try ["user:1", "user:2", "user:3", "user:4", "user:5", "user:h"].reduce(0) {
            $0 + (Int(try server.cli("MEMORY", "USAGE", $1)) ?? 0)
        }
        let admin = try RedisKeyspace(url: server.url, environment: [:]).admin()

        let impact = try admin.preview(Self.prefix("user:"))
        #expect(impact.entries == 6 && impact.bytes == memory && impact.recentHitShare == nil)
        #expect(impact.sampleKeys.sorted().first == "keys/user:1" && impact.sampleKeys.count == 6)
        // Written after the preview: not what the operator confirmed, so it stays.
        try server.cli("SET", "user:late", "l")
        let outcome = try admin.run(Self.prefix("user:"), origin: .current, progress: nil)
        #expect(outcome.removed == 6 && outcome.bytes == memory && outcome.isUndoable && !outcome.isCancelled)
        #expect(try server.cli("--scan", "--pattern", "user:*") == "user:late")
        #expect(try server.cli("GET", "other") == "x")
        let record = try #require(try admin.auditLog(limit: 10).first)
        #expect(record.id == outcome.auditID && record.entries == 6 && record.bytes == memory && record.canUndo)
        #expect(record.target == Self.prefix("user:") && record.finishedAt != nil)

        // A key written again since the deletion keeps its new value.
        try server.cli("SET", "user:2", "newer")
        #expect(try admin.restore(outcome.auditID, origin: .current) == 5)
        #expect(try server.cli("GET", "user:1") == "v1" && server.cli("GET", "user:2") == "newer")
        #expect(try server.cli("HGET", "user:h", "name") == "carol")
        let ttl = try #require(Int(try server.cli("PTTL", "user:3")))
        #expect(try (3_500_000...3_600_000).contains(ttl) && server.cli("PTTL", "user:1") == "-1")
        #expect(try server.cli("--scan", "--pattern", "cachedeck:keytrash:{*}:*").isEmpty, "the trash is emptied")
        #expect(try admin.auditRecord(outcome.auditID)?.undoneAt != nil)
        #expect(throws: CacheError.nothingToRestore(reason: "deletion #\(outcome.auditID) was already undone")) {
            try admin.restore(outcome.auditID, origin: .current)
        }
        #expect(throws: CacheError.self) { try admin.restore(99, origin: .current) }
    }

    /// A database with deletions numbered by their old counter that later gains a RedisStore:
    /// the store's actions and new deletions take ids from one sequence, above the old ones,
    /// so an id in the combined log names one thing and its undo goes to it.
    @Test func storeActionsAndDeletionsShareOneIdSequenceAboveOldDeletions() throws {
        let server = try RedisServer()
        try server.cli("SET", "cachedeck:keytrash:{%log}seq", "40")
        try server.cli(
            "HSET", "cachedeck:keytrash:{%log}record:40", "at", "\(RedisKeyspaceAdmin.now())", "target",
            #"{"deleteKeys":{"_0":{"prefix":{"namespace":"keys","prefix":"old:"}}}}"#, "entries", "3", "bytes", "30")
        try server.cli("ZADD", "cachedeck:keytrash:{%log}index", "\(RedisKeyspaceAdmin.now())", "40")
        let store = try RedisStore(url: server.url, redis: RedisStoreOptions(environment: [:]))
        defer { store.close() }
        try store.cache("colors", key: Int.self, value: String.self).set("red", for: 1)
        let admin = store.adminWithKeys
        let cleared = try admin.run(.clear(namespace: "colors"), origin: .current, progress: nil)
        #expect(cleared.auditID == 41)
        #expect(try admin.auditRecord(41)?.target == .clear(namespace: "colors"))
        #expect(try admin.auditRecord(40)?.target == Self.prefix("old:"))
        try server.cli("SET", "late", "l")
        let deleted = try admin.run(.deleteKeys(.key(namespace: Self.namespace, key: "late")), origin: .current, progress: nil)
        #expect(deleted.auditID == 42)
        #expect(try admin.auditLog(limit: 10).map(\.id).sorted() == [40, 41, 42])
        #expect(try admin.restore(41, origin: .current) == 1)
        #expect(try store.cache("colors", key: Int.self, value: String.self).get(1) == "red")
    }

    @Test func markedKeysABinaryKeyAndAStopBetweenBatches() throws {
        let server = try RedisServer()
        let redis = try RedisConnection(endpoint: try RedisEndpoint(url: server.url, environment: [:]), timeout: .seconds(5))
        try redis.command(["MSET"] + (0..<1200).flatMap { [RedisArgument("bulk:\($0)"), RedisArgument("v\($0)")] })
        try redis.command(["SET", RedisArgument(Data([0x62, 0xFF])), "binary"])
        let admin = try RedisKeyspace(url: server.url, environment: [:]).admin()

        // Keys as the browser shows them: a byte that is not UTF-8 as \xff; a missing key is not counted.
        let marked = AdminTarget.deleteKeys(.keys(namespace: Self.namespace, keys: ["b\\xff", "bulk:7", "missing"]))
        #expect(try admin.preview(marked).entries == 2)
        #expect(try admin.run(marked, origin: .current, progress: nil).removed == 2)
        #expect(try redis.command(["EXISTS", RedisArgument(Data([0x62, 0xFF])), "bulk:7"]).integer == 0)

        // Stopped after the first batch of 500: those are deleted, and undone.
        var reports: [ActionProgress] = []
        let stopped = try admin.run(Self.prefix("bulk:"), origin: .current) { progress in
            reports.append(progress)
            return false
        }
        #expect(stopped.removed == RedisKeyspaceAdmin.batchSize && stopped.isCancelled)
        #expect(reports == [ActionProgress(done: 500, total: 1199)])
        #expect(try server.cli("--scan", "--pattern", "bulk:*").split(separator: "\n").count == 1199 - 500)
        #expect(try admin.restore(stopped.auditID, origin: .current) == 500)
        #expect(try admin.restore(1, origin: .current) == 2)
        #expect(try redis.command(["GET", RedisArgument(Data([0x62, 0xFF]))]).string == "binary")
        #expect(try redis.command(["GET", "bulk:7"]).string == "v7")
        // A record written before ledgers and `deleteKeys` still reads as the deletion it was.
        let old = #"{"invalidate":{"_0":{"prefix":{"namespace":"keys","prefix":"old:"}}}}"#
        try server.cli(
            "HSET", "cachedeck:keytrash:{%log}record:900", "at", "\(RedisKeyspaceAdmin.now())", "target", old, "entries",
            "7", "bytes", "70")
        let record = try #require(try admin.auditRecord(900))
        #expect(record.target == Self.prefix("old:") && record.entries == 7 && record.bytes == 70 && record.canUndo)
        // Ids continue above those the log handed out itself before.
        try server.cli("SET", "cachedeck:keytrash:{%log}seq", "950")
        try server.cli("SET", "late", "l")
        let late = AdminTarget.deleteKeys(.key(namespace: Self.namespace, key: "late"))
        #expect(try admin.run(late, origin: .current, progress: nil).auditID == 951)
        // The log's own keys are never deleted.
        #expect(try admin.preview(Self.prefix("cachedeck:")).entries == 0)
        #expect(throws: CacheError.self) { try admin.preview(.clear(namespace: "keys")) }
    }
}

/// The same on a real 3 + 3 cluster: a prefix's keys over every primary, each moved to a
/// trash hash in its own slot, and back.
@Suite("Deleting keys of a Redis Cluster keyspace", .enabled(if: redisAvailable), .sharedCluster)
struct RedisClusterKeyDeletionTests {
    /// The shared cluster's keyspace and its router.
    static func keyspace() throws -> (RedisKeyspace, ClusterRouter) {
        let keyspace = try RedisKeyspace(url: try SharedCluster.cluster().url, environment: [:])
        guard case .cluster(let router) = keyspace.servers else {
            throw CacheError.cannotOpen(path: "cluster", reason: "a cluster URL makes a cluster keyspace")
        }
        return (keyspace, router)
    }

    @Test func aPrefixOverEveryPrimaryIsDeletedAndRestored() throws {
        let (keyspace, router) = try Self.keyspace()
        for index in 0..<300 {
            try router.command(key: Data("del:\(index)".utf8), ["SET", RedisArgument("del:\(index)"), RedisArgument("v\(index)")])
        }
        try router.command(key: Data("del:7".utf8), ["PEXPIRE", "del:7", "600000"])
        let admin = try keyspace.admin()
        let target = RedisKeyDeletionTests.prefix("del:")
        #expect(try admin.preview(target).entries == 300)
        let outcome = try admin.run(target, origin: .current, progress: nil)
        #expect(outcome.removed == 300)
        var trashByPrimary: [Int] = []
        for pool in keyspace.servers.primaries {
            let found = try pool.withConnection { connection in
                try connection.command(["KEYS", RedisArgument("cachedeck:keytrash:{*}:\(outcome.auditID)")]).array?.count ?? 0
            }
            let left = try pool.withConnection { try $0.command(["KEYS", "del:*"]).array?.count ?? 0 }
            #expect(left == 0)
            trashByPrimary.append(found)
        }
        #expect(trashByPrimary.allSatisfy { $0 > 0 }, "trash in the slots of the keys, on every primary: \(trashByPrimary)")
        // By id: the suite's other test deletes keys on the same cluster at the same time.
        #expect(try admin.auditLog(limit: 10).first { $0.id == outcome.auditID }?.entries == 300)

        #expect(try admin.restore(outcome.auditID, origin: .current) == 300)
        for index in [0, 7, 150, 299] {
            #expect(try router.command(key: Data("del:\(index)".utf8), ["GET", RedisArgument("del:\(index)")]).string == "v\(index)")
        }
        let ttl = try router.command(key: Data("del:7".utf8), ["PTTL", "del:7"]).integer ?? 0
        #expect((500_000...600_000).contains(ttl))
    }

    /// An undo restores from the trash of the slots its record names, and only from there:
    /// a trash hash of the same id in another slot (planted here) is neither walked nor restored.
    @Test func anUndoRestoresOnlyFromTheSlotsItsRecordNames() throws {
        let (keyspace, router) = try Self.keyspace()
        func run(_ arguments: [RedisArgument], on key: String) throws -> RedisReply {
            try router.command(key: Data(key.utf8), arguments)
        }
        let names = (0..<50).map { "only:\($0)" }
        for name in names { try run(["SET", RedisArgument(name), "v"], on: name) }
        let admin = try keyspace.admin()
        let outcome = try admin.run(RedisKeyDeletionTests.prefix("only:"), origin: .current, progress: nil)
        #expect(outcome.removed == 50)

        let named = Set(names.map { ClusterSlot.of(Data($0.utf8)) })
        let stray = try #require((0..<1000).map { "stray:\($0)" }.first { !named.contains(ClusterSlot.of(Data($0.utf8))) })
        try run(["SET", RedisArgument(stray), "planted"], on: stray)
        let dump = try #require(try run(["DUMP", RedisArgument(stray)], on: stray).data)
        try run(["DEL", RedisArgument(stray)], on: stray)
        let trash = KeyTrashKeys(prefix: RedisStoreOptions.defaultPrefix)
            .trash(outcome.auditID, slot: ClusterSlot.of(Data(stray.utf8)))
        try run(["HSET", RedisArgument(trash), RedisArgument(stray), RedisArgument(Data("0:".utf8) + dump)], on: trash)

        #expect(try admin.restore(outcome.auditID, origin: .current) == 50)
        #expect(try run(["GET", "only:7"], on: "only:7").string == "v")
        #expect(try run(["EXISTS", RedisArgument(stray)], on: stray).integer == 0)
        #expect(try run(["HLEN", RedisArgument(trash)], on: trash).integer == 1)
        try run(["DEL", RedisArgument(trash)], on: trash)
    }
}
