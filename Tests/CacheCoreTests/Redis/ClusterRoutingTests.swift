@testable import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Synchronization
import Testing

@testable import CacheCore

/// Slots, the slot map and its untrusted reply, without a server.
@Suite("Cluster slots and slot map")
struct ClusterSlotTests {
    func slot(_ key: String) -> Int { ClusterSlot.of(Array(key.utf8)) }

    @Test func slotsAreCRC16OfTheHashTagAsRedisComputesThem() {
        #expect(ClusterSlot.crc16(Array("123456789".utf8)) == 0x31C3)
        #expect(slot("foo") == 12182 && slot("bar") == 5061)
        #expect(slot("{user1000}.following") == slot("{user1000}.followers"))
        #expect(slot("{user1000}.following") == slot("user1000"))
        // An empty tag hashes the whole key; only the first `{…}` counts.
        #expect(slot("foo{}{bar}") == Int(ClusterSlot.crc16(Array("foo{}{bar}".utf8)) % 16384))
        #expect(slot("foo{{bar}}zap") == slot("{bar"))
        #expect(slot("foo{bar}{zap}") == slot("bar"))
    }

    @Test func aHostileSlotMapIsRefusedWithOneLine() throws {
        func node(_ port: Int64) -> RedisReply { .array([.bulk(Data("127.0.0.1".utf8)), .integer(port)]) }
        let good = RedisReply.array([
            .array([.integer(0), .integer(8191), node(7000), node(7003)]),
            .array([.integer(8192), .integer(16383), node(7001)]),
        ])
        let map = try ClusterTopology(slotsReply: good, defaultHost: "h")
        #expect(map.owner(of: 0)?.port == 7000 && map.owner(of: 16383)?.port == 7001 && map.unservedSlots == 0)
        #expect(map.nodes[0].replicas == [ClusterAddress(host: "127.0.0.1", port: 7003)])
        // A replica joining moves no slot (walks and listeners go on); a slot moving does.
        let joined = try ClusterTopology(
            slotsReply: .array([
                .array([.integer(0), .integer(8191), node(7000), node(7003)]),
                .array([.integer(8192), .integer(16383), node(7001), node(7004)]),
            ]), defaultHost: "h")
        let moved = try ClusterTopology(
            slotsReply: .array([
                .array([.integer(0), .integer(8190), node(7000), node(7003)]),
                .array([.integer(8191), .integer(16383), node(7001)]),
            ]), defaultHost: "h")
        #expect(!joined.movesSlots(from: map) && moved.movesSlots(from: map) && !map.movesSlots(from: map))
        for bad in [
            RedisReply.array([.array([.integer(0), .integer(16384), node(7000)])]),
            .array([.array([.integer(5), .integer(4), node(7000)])]),
            .array([.array([.integer(0), .integer(1), node(70000)])]),
            .array([.array([.integer(0), .integer(1)])]),
            .integer(3),
        ] {
            #expect(throws: RedisError.self) { try ClusterTopology(slotsReply: bad, defaultHost: "h") }
        }
        #expect(ClusterAddress(redirection: "127.0.0.1:99999") == nil && ClusterAddress(redirection: ":1") == nil)
        #expect(Redirection([.error("MOVED 3999 127.0.0.1:6381")]) == .moved(ClusterAddress(host: "127.0.0.1", port: 6381)))
        #expect(Redirection([.status("OK"), .error("ASK 1 10.0.0.1:7002")]) == .ask(ClusterAddress(host: "10.0.0.1", port: 7002)))
    }

    @Test func clusterURLsNameTheirNodesAndOneDatabase() throws {
        let seeds = try ClusterURL.seeds("redis+cluster://u:p@127.0.0.1:7000,localhost:7001/", environment: [:])
        #expect(seeds.map(\.port) == [7000, 7001] && seeds.allSatisfy { $0.user == "u" && $0.password == "p" })
        #expect(ClusterURL.redacted(seeds) == "redis+cluster://u@127.0.0.1:7000,localhost:7001/")
        for bad in ["redis+cluster:///", "redis+cluster://h:1,,h:2/", "redis+cluster://h:1/3", "redis+cluster://h:0/"] {
            #expect(throws: RedisError.self) { try ClusterURL.seeds(bad, environment: [:]) }
        }
    }
}

/// The router against a real cluster: three primaries and three replicas.
@Suite("Cluster routing", .serialized, .enabled(if: redisAvailable))
final class ClusterRoutingTests {
    let cluster: RedisCluster
    let router: ClusterRouter

    init() throws {
        cluster = try RedisCluster()
        router = try ClusterRouter(
            seeds: try ClusterURL.seeds(cluster.url, environment: [:]), poolSize: 2, timeout: .seconds(5))
    }

    deinit { cluster.stop() }

    @Test func eachKeyGoesToThePrimaryOfItsSlot() throws {
        #expect(router.primaries.count == 3 && router.topology.unservedSlots == 0)
        for index in 0..<40 {
            let key = "user:\(index)"
            try router.command(key: Data(key.utf8), ["SET", RedisArgument(key), RedisArgument(index)])
            let port = try cluster.primaryPort(ofSlot: ClusterSlot.of(Array(key.utf8)))
            let owner = try #require(cluster.node(port: port))
            // The owner answers the key itself, without a redirection.
            #expect(try owner.cli("GET", key) == "\(index)")
            #expect(Int(try owner.cli("CLUSTER", "KEYSLOT", key)) == ClusterSlot.of(Array(key.utf8)))
        }
    }

    @Test func commandsFollowMovedAndAskDuringALiveReshard() throws {
        let keys = (0..<2000).map { "{t\($0 % 400)}:k\($0)" }
        for key in keys { try router.command(key: Data(key.utf8), ["SET", RedisArgument(key), "v0"]) }
        let from = router.primaries[0].port
        let to = router.primaries[1].port
        let epoch = router.epoch
        let failures = Mutex<[String]>([])
        let resharding = Atomic(true)
        let cluster = self.cluster
        let reshard = Thread {
            defer { resharding.store(false, ordering: .releasing) }
            do { try cluster.reshard(slots: 1500, fromPort: from, toPort: to) } catch {
                failures.withLock { $0.append("reshard: \(error)") }
            }
        }
        reshard.start()
        var round = 0
        // Reads and writes go on throughout the migration; none may fail or read a wrong value.
        while resharding.load(ordering: .acquiring) || round < 2 {
            round += 1
            for key in keys {
                do {
                    try router.command(key: Data(key.utf8), ["SET", RedisArgument(key), RedisArgument("v\(round)")])
                    let read = try router.command(key: Data(key.utf8), ["GET", RedisArgument(key)])
                    if read.string != "v\(round)" { failures.withLock { $0.append("\(key) read \(read)") } }
                } catch {
                    failures.withLock { $0.append("\(key): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(router.epoch > epoch)  // a MOVED refreshed the map
        #expect(router.topology.nodes.first { $0.address.port == to }!.slotCount > 5461)
    }

    @Test func aFailoverPromotesAReplicaAndWritesGoOnThere() throws {
        let key = "failover:key"
        let slot = ClusterSlot.of(Array(key.utf8))
        try router.command(key: Data(key.utf8), ["SET", RedisArgument(key), "before"])
        let old = try cluster.primaryPort(ofSlot: slot)
        // Until replicated, a write may be lost with its primary: wait for the replica's copy.
        _ = try #require(cluster.node(port: old)).cli("WAIT", "1", "5000")
        try cluster.failOver(primaryPort: old, slot: slot)
        // The first command after the crash may fail (one line); then the new primary serves.
        var value: RedisReply?
        let deadline = ContinuousClock.now + .seconds(20)
        while value == nil && ContinuousClock.now < deadline {
            value = try? router.command(key: Data(key.utf8), ["GET", RedisArgument(key)])
        }
        #expect(value?.string == "before")
        try router.command(key: Data(key.utf8), ["SET", RedisArgument(key), "after"])
        #expect(router.topology.owner(of: slot)?.port != old)
        #expect(try router.command(key: Data(key.utf8), ["GET", RedisArgument(key)]).string == "after")
    }

    @Test func theKeyspaceBrowserScansEveryPrimaryAndReadsAKeyFromItsNode() throws {
        for index in 0..<3000 {
            let key = index % 3 == 0 ? "cache:page:\(index)" : "user:\(index)"
            try router.command(key: Data(key.utf8), ["SET", RedisArgument(key), "v"])
        }
        let keyspace = try RedisKeyspace(url: cluster.url, environment: [:])
        #expect(try keyspace.server().keyCount == 3000)
        let scan = keyspace.scan(batchSize: 100)
        // The primaries are walked at once: one step reads a batch of each.
        let first = try scan.step()
        #expect(first.batches == 3 && first.keysInDatabase == 3000 && !first.isComplete)
        let progress = try scan.finish()
        #expect(progress.isComplete && progress.keysFound == 3000 && progress.keysInDatabase == 3000)
        let root = scan.level()
        #expect(root.keys == KeyspaceAmount(3000))
        let counts = Dictionary(uniqueKeysWithValues: root.children.map { ($0.nameText, $0.keys.value) })
        #expect(counts == ["user:": 2000, "cache:": 1000])
        // Every key, whichever node serves it, opens.
        for key in ["user:1", "user:2", "cache:page:3", "user:2999"] {
            #expect(try keyspace.key(Data(key.utf8))?.type == .string)
        }
        #expect(try keyspace.key(Data("user:missing".utf8)) == nil)
    }

    @Test func theTopologyListsEveryNodeAndShowsADownOneAsDown() throws {
        let keyspace = try RedisKeyspace(url: cluster.url, environment: [:])
        let nodes = try #require(try keyspace.clusterNodes())
        #expect(nodes.count == 6 && nodes.filter { $0.role == "primary" }.map(\.slots).reduce(0, +) == 16_384)
        #expect(nodes.allSatisfy { !$0.isDown && $0.keys != nil && $0.usedMemory != nil })
        #expect(nodes.filter { $0.role == "replica" }.allSatisfy { $0.primaryID != nil && $0.slots == 0 })
        // Each primary's ranges are the slots it serves, and together they cover the cluster.
        let ranges = nodes.filter { $0.role == "primary" }.flatMap(\.slotRanges)
        #expect(nodes.allSatisfy { $0.slotRanges.reduce(0) { $0 + $1.count } == $0.slots })
        #expect(Set(ranges.flatMap { Array($0) }).count == 16_384)

        // The topology places each namespace on the primary serving its record's slot.
        let keys = RedisKeys(prefix: "cachedeck:")
        try router.command(key: Data(keys.namespaces.utf8), ["SADD", RedisArgument(keys.namespaces), "users", "pages"])
        let topology = try keyspace.topology(storePrefix: "cachedeck:")
        #expect(topology.isCluster && topology.nodes.count == 6 && topology.namespaceFailure == nil)
        #expect(topology.namespaces.map(\.name) == ["pages", "users"])
        for placement in topology.namespaces {
            let slot = ClusterSlot.of(Array(keys.namespace(placement.name).utf8))
            let port = try cluster.primaryPort(ofSlot: slot)
            #expect(placement.slot == slot && placement.node == "127.0.0.1:\(port)")
        }

        let replica = try #require(nodes.first { $0.role == "replica" })
        let port = try #require(Int(replica.address.split(separator: ":").last ?? ""))
        try #require(cluster.node(port: port)).stop()
        let after = try #require(try keyspace.clusterNodes())
        let down = try #require(after.first { $0.address == replica.address })
        #expect(after.count == 6 && down.isDown && down.keys == nil && down.usedMemory == nil)
        // The sums still come from the primaries, which all answer.
        #expect(try keyspace.server().role == "cluster of 3 primaries")
        // The slow log lists every node, the one that is down with why.
        let logs = try keyspace.latency(count: 10)
        #expect(logs.count == 6 && logs.filter { $0.failure != nil }.map(\.node) == [replica.address])
        #expect(logs.filter { $0.failure == nil }.allSatisfy { $0.slowLogLength != nil })
    }

    @Test func hostileClusterNodesListingsAreBounded() {
        let listing = """
            abc 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460 [5461->-def]
            def 127.0.0.1:7001@17001 slave abc 0 0 1 connected
            ghi 127.0.0.1:7002@17002 master,fail - 0 0 1 disconnected 5461-99999
            junk line
            """
        let nodes = RedisClusterNode.parse(listing)
        #expect(nodes.map(\.slots) == [5461, 0, 10_923])
        #expect(nodes.map(\.slotRanges) == [[0...5460], [], [5461...16_383]])
        #expect(nodes.map(\.isDown) == [false, false, true] && nodes[1].primaryID == "abc")
    }
}
