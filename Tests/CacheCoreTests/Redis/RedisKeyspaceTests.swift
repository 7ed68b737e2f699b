@testable import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// The read-only keyspace browser against a private redis-server.
@Suite("Redis keyspace browser", .enabled(if: redisAvailable))
struct RedisKeyspaceTests {
    let server: RedisServer
    init() throws { server = try RedisServer() }

    func writer() throws -> RedisConnection {
        try RedisConnection(endpoint: try RedisEndpoint(url: server.url, environment: [:]), timeout: .seconds(5))
    }

    func open(_ url: String? = nil) throws -> RedisKeyspace {
        try RedisKeyspace(url: url ?? server.url, environment: [:])
    }

    /// A small keyspace of every type, some with expiries, one key that is not UTF-8.
    func fillSample() throws {
        let redis = try writer()
        _ = try redis.pipeline([
            ["SET", "user:1", "alice"],
            ["HSET", "user:2", "name", "bob", "age", "41"],
            ["RPUSH", "user:admin:1", "a", "b", "c"],
            ["PEXPIRE", "user:admin:1", "600000"],
            ["SADD", "session:abc", "x", "y"],
            ["ZADD", "ranks", "1.5", "carol", "2", "dave"],
            ["XADD", "events", "1-1", "kind", "login"],
            ["SET", RedisArgument(Data([0x62, 0x69, 0x6E, 0x3A, 0xFF, 0x00])), "raw"],
        ])
    }

    func memoryUsage(_ key: String) throws -> Int {
        try #require(Int(try server.cli("MEMORY", "USAGE", key)))
    }

    @Test func theTreeGroupsKeysOnTheSeparatorWithExactTotalsOnceTheScanIsDone() throws {
        try fillSample()
        let keyspace = try open()
        let scan = keyspace.scan()
        let progress = try scan.finish()
        #expect(progress.isComplete && progress.keysFound == 7 && progress.keysInDatabase == 7)
        let root = scan.level()
        #expect(root.keys == KeyspaceAmount(7))
        #expect(root.childCount == 5)
        let names = Dictionary(uniqueKeysWithValues: root.children.map { ($0.nameText, $0) })
        #expect(Set(names.keys) == ["user:", "session:", "bin:", "ranks", "events"])
        let users = try #require(names["user:"])
        #expect(users.kind == .prefix && users.keys == KeyspaceAmount(3))
        let userBytes = try memoryUsage("user:1") + memoryUsage("user:2") + memoryUsage("user:admin:1")
        #expect(users.bytes.value == userBytes && !users.bytes.isLowerBound)
        let ranksBytes = try memoryUsage("ranks")
        #expect(names["ranks"]?.type == .zset && names["ranks"]?.bytes.value == ranksBytes)
        #expect(root.children.map(\.bytes.value) == root.children.map(\.bytes.value).sorted(by: >))

        let level = scan.level(users.path)
        #expect(level.prefixText == "user:" && level.keys == KeyspaceAmount(3))
        let below = Dictionary(uniqueKeysWithValues: level.children.map { ($0.nameText, $0) })
        #expect(Set(below.keys) == ["1", "2", "admin:"])
        #expect(below["1"]?.type == .string && below["2"]?.type == .hash && below["1"]?.expiresAt == nil)
        let admin = try #require(scan.level(Data("user:admin:".utf8)).children.first)
        #expect(admin.type == .list && admin.path == Data("user:admin:1".utf8))
        let remaining = try #require(admin.expiresAt).subtractingClamped(KeyspaceScan.now())
        #expect((590_000...600_000).contains(remaining))
        // A name that is not UTF-8 shows with escapes, and keeps its bytes.
        let binary = try #require(scan.level(Data("bin:".utf8)).children.first)
        #expect(binary.nameText == "\\xff\u{0}" && binary.path == Data([0x62, 0x69, 0x6E, 0x3A, 0xFF, 0x00]))
    }

    @Test func aPrefixScanMatchesOnlyItsKeysEvenWithGlobCharacters() throws {
        let redis = try writer()
        _ = try redis.pipeline([
            ["SET", "a*b:1", "1"], ["SET", "axb:1", "2"], ["SET", "a*b:c:2", "3"], ["SET", "b", "4"],
        ])
        let scan = try open().scan(prefix: Data("a*b:".utf8))
        try scan.finish()
        let level = scan.level()
        #expect(level.keys == KeyspaceAmount(2))
        #expect(Set(level.children.map(\.nameText)) == ["1", "c:"])
        #expect(KeyspaceScan.pattern(Data("a*b?[x]\\".utf8)) == Data("a\\*b\\?\\[x\\]\\\\*".utf8))
    }

    @Test func twentyThousandKeysScanInBoundedBatchesAndCountExactlyAtTheEnd() throws {
        let redis = try writer()
        let prefixes = ["orders:", "users:", "carts:eu:"]
        for chunk in stride(from: 0, to: 20_000, by: 1000) {
            let arguments = (chunk..<chunk + 1000).flatMap { index -> [RedisArgument] in
                [RedisArgument(prefixes[index % 3] + "\(index)"), RedisArgument("v\(index)")]
            }
            try redis.command(["MSET"] + arguments)
        }
        let keyspace = try open()
        #expect(try keyspace.server().keyCount == 20_000)
        let scan = keyspace.scan(batchSize: 500)
        var previous = 0
        var sawPartial = false
        while true {
            let progress = try scan.step()
            // SCAN's COUNT is a hint: a batch brings about that many keys, never the keyspace.
            #expect(progress.keysFound - previous <= 1500)
            previous = progress.keysFound
            if progress.isComplete { break }
            let partial = scan.level()
            sawPartial = true
            #expect(partial.keys.isLowerBound && partial.children.allSatisfy { $0.keys.isLowerBound })
            #expect(partial.keys.mark == "≥")
        }
        #expect(sawPartial && scan.progress.batches >= 20)
        let root = scan.level()
        #expect(root.keys == KeyspaceAmount(20_000))
        let counts = Dictionary(uniqueKeysWithValues: root.children.map { ($0.nameText, $0.keys) })
        #expect(
            counts == ["orders:": KeyspaceAmount(6667), "users:": KeyspaceAmount(6667), "carts:": KeyspaceAmount(6666)])
        #expect(scan.level(Data("carts:eu:".utf8), limit: 10).children.count == 10)
        #expect(scan.level(Data("carts:eu:".utf8), limit: 10).childCount == 6666)
        // Once complete, more steps read nothing.
        #expect(try scan.step().batches == scan.progress.batches)
    }

    @Test func aKeyInFullWithABoundedPreviewOfEachType() throws {
        let redis = try writer()
        try redis.command(["SET", "text", "hello\nworld"])
        try redis.command(["SET", "blob", RedisArgument(Data([0, 1, 2, 0xFF]))])
        try redis.command(["SET", "long", RedisArgument(String(repeating: "é", count: 3000))])
        try redis.command(["RPUSH", "list"] + (0..<60).map { RedisArgument("item\($0)") })
        try redis.command(
            ["HSET", "hash"]
                + (0..<200).flatMap {
                    [RedisArgument("f\($0)"), RedisArgument("v\($0)" + String(repeating: "-", count: 70))]
                })
        try redis.command(["ZADD", "zset", "1.5", "a", "2", "b"])
        try redis.command(["XADD", "stream", "5-1", "k", "v", "k2", "v2"])
        try redis.command(["PEXPIRE", "list", "90000"])
        let keyspace = try open()

        let text = try #require(try keyspace.key(Data("text".utf8)))
        #expect(text.type == .string && text.length == 11 && text.lengthUnit == "bytes")
        #expect(text.preview.format == "text" && text.preview.text == "hello\nworld" && !text.preview.isTruncated)
        let textBytes = try memoryUsage("text")
        #expect(text.bytes == KeyspaceAmount(textBytes) && text.encoding == "embstr")
        #expect(text.ttlMilliseconds == nil)

        let blob = try #require(try keyspace.key(Data("blob".utf8)))
        #expect(blob.preview.format == "hex" && blob.preview.hex?.first?.hex.hasPrefix("00 01 02 ff") == true)

        let long = try #require(try keyspace.key(Data("long".utf8)))
        #expect(long.length == 6000 && long.preview.isTruncated && long.preview.format == "text")
        #expect(long.preview.text?.utf8.count == 4096)

        let list = try #require(try keyspace.key(Data("list".utf8)))
        #expect(list.length == 60 && list.preview.items?.count == 50 && list.preview.isTruncated)
        #expect(list.preview.items?.first == RedisPreviewItem(name: nil, value: "item0"))
        let listTTL = try #require(list.ttlMilliseconds)
        #expect((80_000...90_000).contains(listTTL))

        let hash = try #require(try keyspace.key(Data("hash".utf8)))
        #expect(hash.length == 200 && hash.preview.items?.count == 50 && hash.preview.isTruncated)
        #expect(hash.encoding == "hashtable", "\(hash.encoding)")
        #expect(hash.bytes.isSampled && hash.bytes.mark == "~")
        let item = try #require(hash.preview.items?.first)
        #expect(try server.cli("HGET", "hash", try #require(item.name)) == item.value)

        let zset = try #require(try keyspace.key(Data("zset".utf8)))
        #expect(
            zset.preview.items == [RedisPreviewItem(name: "a", value: "1.5"), RedisPreviewItem(name: "b", value: "2")])
        #expect(zset.bytes.isExact)

        let stream = try #require(try keyspace.key(Data("stream".utf8)))
        #expect(stream.preview.items == [RedisPreviewItem(name: "5-1", value: "k=v k2=v2")])
        #expect(stream.length == 1 && stream.lengthUnit == "entries")

        #expect(try keyspace.key(Data("missing".utf8)) == nil)
    }

    @Test func itSendsOnlyReadCommands() throws {
        try fillSample()
        try server.cli("HSET", "big", "f1", "1", "f2", "2")
        let acl = try server.cli(
            "ACL", "SETUSER", "reader", "on", ">secret", "~*", "&*", "-@all", "+@read", "+@connection", "+info")
        #expect(acl == "OK")
        try server.cli("ACL", "LOG", "RESET")
        let keyspace = try open("redis://reader:secret@127.0.0.1:\(server.port)/0")
        let info = try keyspace.server()
        #expect(info.keyCount == 8 && info.role == "master" && info.version != "?")
        let scan = keyspace.scan(batchSize: 3)
        try scan.finish()
        #expect(scan.level().keys == KeyspaceAmount(8))
        for node in scan.level().children + scan.level(Data("user:".utf8)).children where node.kind == .key {
            #expect(try keyspace.key(node.path) != nil)
        }
        _ = try keyspace.key(Data("user:admin:1".utf8))
        // Any command outside the reader's rights would have thrown, and would be in the ACL log.
        #expect(try server.cli("ACL", "LOG") == "")
        // The rights are real: the reader cannot write.
        let reader = try RedisConnection(
            endpoint: try RedisEndpoint(url: "redis://reader:secret@127.0.0.1:\(server.port)/0", environment: [:]),
            timeout: .seconds(2))
        #expect(throws: RedisError.self) { try reader.command(["SET", "x", "1"]) }
    }

    @Test func theServerAtAGlance() throws {
        try fillSample()
        let info = try open().server()
        #expect(info.keyCount == 7 && info.role == "master" && info.maxMemoryPolicy == "noeviction")
        let serverInfo = try server.cli("INFO", "server")
        let version = serverInfo.split(whereSeparator: \.isNewline).first { $0.hasPrefix("redis_version:") }
        #expect(info.version == version.map { String($0.dropFirst(14)) })
        #expect(info.usedMemory > 0 && info.endpoint == "127.0.0.1:\(server.port)")
    }

    @Test func badURLsRefusedConnectionsAndWrongPasswordsFailInOneLine() throws {
        let locked = try RedisServer(password: "right")
        let failures: [String] = [
            "http://x", "redis://127.0.0.1:\(locked.port)/0", "redis://:wrong@127.0.0.1:\(locked.port)/0",
        ]
        for url in failures {
            #expect {
                try RedisKeyspace(url: url, environment: [:])
            } throws: { error in
                !"\(error)".contains("\n") && ("\(error)".contains("bad Redis URL") || "\(error)".contains("refused"))
            }
        }
        let port = locked.port
        locked.stop()
        #expect {
            try RedisKeyspace(url: "redis://127.0.0.1:\(port)/0", environment: [:])
        } throws: { error in "\(error)".hasPrefix("cannot connect to Redis at 127.0.0.1:\(port)") }
    }
}
