import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore
@testable import CacheCoreRedis

/// A server is not trusted (issue #27): numbers at the limits of Int64 saturate, a reply has a
/// size bound and a deadline for the whole of it, and every scan ends. Served by a fake RESP
/// server on a loopback port, as one server and as a one-node cluster (`redis+cluster://`).
@Suite("Redis: hostile replies")
struct RedisHostileServerTests {
    typealias Fake = FakeRedisServer

    /// A keyspace on a fake server answering the login, `DBSIZE` and what `attack` scripts.
    func keyspace(_ deployment: RedisDeployment, _ attack: @escaping @Sendable ([String]) -> Fake.Reply?) throws -> (
        Fake, RedisKeyspace
    ) {
        let fake = try Fake(cluster: deployment == .cluster) { command in
            Fake.login(command, keys: 2) ?? attack(command) ?? .bytes(Fake.error("ERR unscripted \(command[0])"))
        }
        return (fake, try RedisKeyspace(url: fake.url, environment: [:], timeout: .seconds(1)))
    }

    /// Replies of a server whose two keys have Int64-extreme expiries and sizes.
    static func extremes(_ command: [String]) -> Fake.Reply? {
        switch command.first?.uppercased() {
        case "SCAN": .bytes(Fake.array([Fake.bulk("0"), Fake.array([Fake.bulk("a:max"), Fake.bulk("a:min")])]))
        case "TYPE": .bytes(Fake.status("string"))
        case "PTTL": .bytes(Fake.integer(command.last == "a:min" ? .min : .max))
        case "MEMORY": .bytes(Fake.integer(command.last == "a:min" ? .min : .max))
        case "OBJECT": .bytes(Fake.bulk("raw"))
        case "STRLEN": .bytes(Fake.integer(.min))
        case "GETRANGE": .bytes(Fake.bulk("v"))
        default: nil
        }
    }

    @Test(arguments: RedisDeployment.allCases) func int64ExtremesSaturate(_ deployment: RedisDeployment) throws {
        let (fake, keyspace) = try keyspace(deployment, Self.extremes)
        defer { fake.stop() }
        let scan = keyspace.scan()
        #expect(try scan.finish().isComplete)  // a SCAN, then the facts of its keys
        let level = scan.level()
        #expect(level.children.count == 1)
        let prefix = try #require(level.children.first)
        #expect(prefix.keys.value == 2 && prefix.bytes.value == Int.max)
        let keys = scan.level(prefix.path).children
        #expect(keys.first { $0.nameText == "max" }?.expiresAt == .max)
        let detail = try #require(try keyspace.key(Data("a:max".utf8)))
        #expect(detail.expiresAt == .max && detail.bytes.value == Int.max)
        let low = try #require(try keyspace.key(Data("a:min".utf8)))
        #expect(low.expiresAt == nil && low.bytes.value == 0 && low.length == 0)
    }

    @Test(arguments: RedisDeployment.allCases, [
        ("a $2147483647 bulk", Fake.Reply.endless(Data("$2147483647\r\n".utf8) + Data(repeating: 120, count: 1 << 20))),
        ("a *2147483647 array", .bytes(Data("*2147483647\r\n".utf8))),
        (
            "a million small items",
            .bytes(
                Fake.array([
                    Fake.bulk("0"),
                    Fake.array(
                        Array(repeating: Fake.array(Array(repeating: Fake.integer(1), count: 1000)), count: 1000)),
                ]))
        ),
    ])
    func aReplyLargerThanItsBoundIsRefusedInOneLine(_ deployment: RedisDeployment, _ attack: (String, Fake.Reply))
        throws
    {
        let (fake, keyspace) = try keyspace(deployment) { command in command[0] == "SCAN" ? attack.1 : nil }
        defer { fake.stop() }
        #expect {
            try keyspace.scan().step()
        } throws: { error in
            let line = "\(error)"
            return line.contains("larger than one reply may hold") && !line.contains("\n")
        }
        #expect(try keyspace.server().keyCount == 2, "the abandoned connection is not reused (\(attack.0))")
    }

    @Test(arguments: RedisDeployment.allCases) func aTricklingReplyEndsAtTheDeadline(_ deployment: RedisDeployment)
        throws
    {
        let reply = Fake.bulk(String(repeating: "# Server\r\n", count: 1000))
        let (fake, keyspace) = try keyspace(deployment) { command in
            command[0] == "INFO" ? .trickle(reply, interval: .milliseconds(20)) : nil
        }
        defer { fake.stop() }
        let start = ContinuousClock.now
        #expect {
            try keyspace.server()
        } throws: { "\($0)".contains("did not send a whole reply in time") }
        // The reply would take 200 s; the deadline is 1 s for all of it (not per read).
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test(arguments: RedisDeployment.allCases) func aScanWhoseCursorNeverEndsIsStopped(_ deployment: RedisDeployment)
        throws
    {
        let (fake, keyspace) = try keyspace(deployment) { command in
            command[0] == "SCAN" ? .bytes(Fake.array([Fake.bulk("7"), Fake.array([])])) : nil
        }
        defer { fake.stop() }
        let scan = keyspace.scan()
        var steps = 0
        var failure: (any Error)?
        while failure == nil && steps < 5000 {
            do { try scan.step() } catch { failure = error }
            steps += 1
        }
        #expect("\(failure.map { "\($0)" } ?? "none")".contains("SCAN did not end after 1000 calls"))
    }

    @Test(arguments: RedisDeployment.allCases) func theStoreInspectorsScansEndToo(_ deployment: RedisDeployment)
        throws
    {
        let endless = Fake.Reply.bytes(Fake.array([Fake.bulk("7"), Fake.array([])]))
        let fake = try Fake(cluster: deployment == .cluster) { command in
            if let login = Fake.login(command, keys: 2) { return login }
            return switch command[0].uppercased() {
            case "SCAN", "SSCAN": endless
            case "SCARD": .bytes(Fake.integer(0))
            default: .bytes(Fake.error("ERR unscripted \(command[0])"))
            }
        }
        defer { fake.stop() }
        let inspector = try RedisStoreInspector(url: fake.url, environment: [:], timeout: .seconds(1))
        #expect {
            try inspector.namespaces()
        } throws: { "\($0)".contains("SCAN did not end after 1000 calls") }
        // The census reads the namespace set first, so it stops there too: it never spins.
        let census = inspector.census()
        #expect {
            for _ in 0..<5000 { try census.step() }
        } throws: { "\($0)".contains("SCAN did not end after 1000 calls") }
    }

    /// A key deletion's record read back (its counts, its undo) walks the slots the log names
    /// with `SSCAN`: a cursor that never comes back to 0 stops it with one line, no hang.
    @Test(arguments: RedisDeployment.allCases) func aDeletionsSlotWalkEndsToo(_ deployment: RedisDeployment) throws {
        let target = #"{"deleteKeys":{"_0":{"prefix":{"namespace":"keys","prefix":"a:"}}}}"#
        let (fake, keyspace) = try keyspace(deployment) { command in
            switch command[0].uppercased() {
            case "HGETALL":
                .bytes(Fake.array(["at", "\(RedisKeyspaceAdmin.now())", "target", target, "ledgers", "1"].map(Fake.bulk)))
            case "SSCAN": .bytes(Fake.array([Fake.bulk("7"), Fake.array([Fake.bulk("12")])]))
            case "SCARD": .bytes(Fake.integer(1))
            default: nil
            }
        }
        defer { fake.stop() }
        let admin = try keyspace.admin()
        #expect {
            try admin.restore(5, origin: .current)
        } throws: { "\($0)".contains("SCAN did not end after 1000 calls") }
    }
}

