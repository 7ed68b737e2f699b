import CacheDeckTestSupport
import Foundation
import Synchronization
import Testing

@testable import CacheCore
@testable import CacheCoreRedis

/// A cluster's slot map is untrusted too (issue #27): slots and ports out of range, a map too
/// large or endless, a slot given twice and a node that redirects to itself forever each end
/// in one line, without a crash or a hang. Served by a fake RESP server as the cluster's seed.
@Suite("Redis Cluster: hostile slot maps")
struct ClusterHostileSlotMapTests {
    typealias Fake = FakeRedisServer

    /// The one line opening a cluster keyspace on a fake whose `CLUSTER SLOTS` is `map`.
    func openingError(_ map: Fake.Reply) throws -> String {
        let fake = try Fake { command in
            if let login = Fake.login(command) { return login }
            return command.first?.uppercased() == "CLUSTER" ? map : .bytes(Fake.error("ERR unscripted"))
        }
        defer { fake.stop() }
        do {
            _ = try RedisKeyspace(url: fake.clusterURL, environment: [:], timeout: .seconds(1))
            return "opened"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        ("a slot past 16383", Fake.slots([(0, 16_384)], port: 7000), "out of bounds"),
        ("a negative slot", Fake.slots([(-1, 5)], port: 7000), "out of bounds"),
        ("Int64 extremes", Fake.slots([(.min, .max)], port: 7000), "out of bounds"),
        ("a port past 65535", Fake.slots([(0, 16_383)], port: 70_000), "valid host and port"),
        ("port 0", Fake.slots([(0, 16_383)], port: 0), "valid host and port"),
        ("a negative port", Fake.slots([(0, 16_383)], port: .min), "valid host and port"),
        ("a slot given twice", Fake.slots([(0, 16_383), (5, 5)], port: 7000), "slot 5 to two ranges"),
        ("not an array", Fake.status("OK"), "gave no array"),
    ])
    func aMapOutOfBoundsIsRefusedInOneLine(_ attack: (String, Data, String)) throws {
        let line = try openingError(.bytes(attack.1))
        #expect(line.contains(attack.2) && !line.contains("\n"), "\(attack.0): \(line)")
    }

    @Test func aMapOfMorePrimariesThanSlotsIsRefusedNotCrashedOn() throws {
        // 40,000 ranges, each of all slots on a primary of its own: more primaries than a map
        // can index, and 650 million slot assignments.
        let map = Fake.slots((1...40_000).map { _ in (0, 16_383) }, port: 7000)
        let ports = (1...40_000).map { port in
            Fake.array([Fake.integer(0), Fake.integer(16_383), Fake.array([Fake.bulk("h"), Fake.integer(Int64(port))])])
        }
        for reply in [map, Fake.array(ports)] {
            let line = try openingError(.bytes(reply))
            #expect(line.contains("slot 0 to two ranges") && !line.contains("\n"), "\(line)")
        }
    }

    @Test func aPrimaryWithEndlessReplicasKeepsABoundedFew() throws {
        // Each one a node a refresh would try: 50,000 of them on one range.
        let replicas = (1...50_000).map { RedisReply.array([.bulk(Data("r".utf8)), .integer(Int64($0))]) }
        let primary = RedisReply.array([.bulk(Data("p".utf8)), .integer(1)])
        let range = RedisReply.array([.integer(0), .integer(16_383), primary] + replicas)
        let topology = try ClusterTopology(slotsReply: .array([range]), defaultHost: "seed")
        #expect(topology.nodes.count == 1 && topology.nodes[0].replicas.count == ClusterTopology.maxReplicas)
        #expect(topology.owner(of: 16_383) == ClusterAddress(host: "p", port: 1))
    }

    @Test(arguments: [
        ("a *2147483647 map", Fake.Reply.bytes(Data("*2147483647\r\n".utf8))),
        (
            "an endless map",
            .endless(Data("*400000\r\n".utf8) + Fake.slots((0..<1000).map { _ in (0, 0) }, port: 7000).dropFirst(7))
        ),
    ])
    func aMapLargerThanAReplyMayHoldIsRefusedInOneLine(_ attack: (String, Fake.Reply)) throws {
        let line = try openingError(attack.1)
        #expect(line.contains("larger than one reply may hold") && !line.contains("\n"), "\(attack.0): \(line)")
    }

    @Test func aNodeRedirectingToItselfForeverIsLeftInOneLine() throws {
        let port = Mutex(0)
        let fake = try Fake(cluster: true) { command in
            if let login = Fake.login(command) { return login }
            return .bytes(Fake.error("MOVED 15495 127.0.0.1:\(port.withLock { $0 })"))
        }
        defer { fake.stop() }
        port.withLock { $0 = fake.port }
        let keyspace = try RedisKeyspace(url: fake.url, environment: [:], timeout: .seconds(1))
        #expect {
            _ = try keyspace.key(Data("a".utf8))
        } throws: { error in
            "\(error)".contains("still moving after \(ClusterRouter.maxRedirections) redirections")
                && !"\(error)".contains("\n")
        }
    }
}
