@testable import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// Runs where `redis-server` is installed, and always in CI (where a missing one fails).
let redisAvailable = RedisServer.isInstalled || RedisServer.isRequired

@Suite("Redis endpoint URLs")
struct RedisEndpointTests {
    @Test func parsesEveryPartOfAURL() throws {
        let endpoint = try RedisEndpoint(url: "redis://alice:p%40ss@cache.example:6380/3", environment: [:])
        #expect(
            endpoint == RedisEndpoint(host: "cache.example", port: 6380, database: 3, user: "alice", password: "p@ss"))
        #expect(endpoint.description == "cache.example:6380/3")
        #expect(endpoint.redactedURL == "redis://alice@cache.example:6380/3")
        #expect(!"\(endpoint)".contains("p@ss"))
    }

    @Test func defaultsAndShorthands() throws {
        #expect(try RedisEndpoint(url: "redis://localhost", environment: [:]) == RedisEndpoint(host: "localhost"))
        #expect(
            try RedisEndpoint(url: "redis://[::1]:7000", environment: [:]) == RedisEndpoint(host: "::1", port: 7000))
        #expect(try RedisEndpoint(url: "redis://[::1]:7000", environment: [:]).description == "[::1]:7000")
        // redis-cli's `redis://secret@host`: a password without a user.
        #expect(try RedisEndpoint(url: "redis://secret@h", environment: [:]).password == "secret")
        #expect(try RedisEndpoint(url: "redis://secret@h", environment: [:]).user == nil)
    }

    @Test func thePasswordMayComeFromREDISCLI_AUTH() throws {
        let environment = ["REDISCLI_AUTH": "from-env"]
        #expect(try RedisEndpoint(url: "redis://h:1/0", environment: environment).password == "from-env")
        #expect(try RedisEndpoint(url: "redis://:url@h:1/0", environment: environment).password == "url")
    }

    @Test(arguments: [
        ("localhost:6379", "is not a redis:// URL"),
        ("http://h", "is not a redis:// URL"),
        ("rediss://h", "TLS"),
        ("redis://", "names no host"),
        ("redis://h:0", "out of range"),
        ("redis://h/x", "is not a number"),
        ("redis://h/-1", "is not a number"),
    ])
    func refusesWhatCannotNameAServer(url: String, reason: String) {
        #expect {
            try RedisEndpoint(url: url, environment: [:])
        } throws: { error in
            guard let error = error as? RedisError, case .badURL = error else { return false }
            return "\(error)".contains(reason) && !"\(error)".contains("\n")
        }
    }
}

@Suite("Redis client layer", .enabled(if: redisAvailable))
struct RedisClientTests {
    let server: RedisServer
    init() throws { server = try RedisServer() }

    func connect(_ url: String? = nil, timeout: Duration = .seconds(2)) throws -> RedisConnection {
        try RedisConnection(endpoint: try RedisEndpoint(url: url ?? server.url, environment: [:]), timeout: timeout)
    }

    @Test func valuesRoundTripByteForByte() throws {
        let connection = try connect()
        let bytes = Data([0, 13, 10, 255, 0x24, 0x2A] + Array("ключ 🔑".utf8))
        try connection.command(["SET", RedisArgument(bytes), RedisArgument(bytes)])
        #expect(try connection.command(["GET", RedisArgument(bytes)]) == .bulk(bytes))
        #expect(try connection.command(["GET", "missing"]) == .null)
        #expect(try connection.command(["INCRBY", "n", 41]).integer == 41)
        #expect(try connection.command(["RPUSH", "l", "a", ""]).integer == 2)
        #expect(try connection.command(["LRANGE", "l", 0, -1]) == .array([.bulk(Data("a".utf8)), .bulk(Data())]))
        #expect(try connection.command(["PING"]) == .status("PONG"))
        #expect(try server.cli("STRLEN", "n") == "2")
    }

    @Test func aPipelineAnswersInOrderWithErrorsInPlace() throws {
        let connection = try connect()
        let replies = try connection.pipeline([["SET", "a", "1"], ["INCR", "a"], ["HGET", "a", "f"], ["GET", "a"]])
        #expect(replies.count == 4)
        #expect(replies[1] == .integer(2))
        guard case .error(let message) = replies[2] else {
            Issue.record("expected an error reply, got \(replies[2])")
            return
        }
        #expect(message.hasPrefix("WRONGTYPE"))
        #expect(replies[3].string == "2")
        #expect(try connection.command(["PING"]) == .status("PONG"))
    }

    @Test func anErrorReplyThrowsAndTheConnectionStaysUsable() throws {
        let connection = try connect()
        #expect(throws: RedisError.self) { try connection.command(["NOSUCHCOMMAND"]) }
        #expect(!connection.isBroken)
        #expect(try connection.command(["PING"]) == .status("PONG"))
    }

    @Test func aSlowAnswerTimesOutAndBreaksOnlyThatConnection() throws {
        let connection = try connect(timeout: .milliseconds(100))
        #expect(throws: RedisError.timeout(endpoint: "127.0.0.1:\(server.port)")) {
            try connection.command(["BLPOP", "nothing", "2"])
        }
        #expect(connection.isBroken)
        #expect(try connect().command(["PING"]) == .status("PONG"))
    }

    @Test func messagesArriveOnASubscribedConnectionAndQuietIsNotAnError() throws {
        let subscriber = try connect()
        let subscribed = try subscriber.command(["SUBSCRIBE", "news"])
        #expect(subscribed.array?.first?.string == "subscribe")
        #expect(try subscriber.nextMessage(timeout: .milliseconds(20)) == nil)
        #expect(try connect().command(["PUBLISH", "news", "hello"]).integer == 1)
        let message = try subscriber.nextMessage(timeout: .seconds(5))
        #expect(message?.array?.map(\.string) == ["message", "news", "hello"])
    }

    @Test func aMissingDatabaseIsABadURL() throws {
        #expect(throws: RedisError.badURL("database 99 does not exist on 127.0.0.1:\(server.port)/99")) {
            try connect("redis://127.0.0.1:\(server.port)/99")
        }
    }

    @Test func aServerThatIsDownCannotBeReachedAndThePoolFailsFast() throws {
        let url = server.url
        server.stop()
        #expect {
            try connect(url)
        } throws: { error in
            guard case .cannotConnect(let endpoint, let reason) = error as? RedisError else { return false }
            return endpoint == "127.0.0.1:\(server.port)" && reason.contains("refused")
        }
        let pool = RedisPool(endpoint: try RedisEndpoint(url: url, environment: [:]), size: 2, timeout: .seconds(1))
        let first = #expect(throws: RedisError.self) { try pool.withConnection { _ in () } }
        // Within the back-off the pool answers with the same error without trying again.
        let second = #expect(throws: RedisError.self) { try pool.withConnection { _ in () } }
        #expect(first == second)
    }

    @Test func thePoolReusesHealthyConnectionsAndReplacesOnesTheServerClosed() throws {
        let pool = RedisPool(
            endpoint: try RedisEndpoint(url: server.url, environment: [:]), size: 2, timeout: .seconds(1))
        let id = try #require(try pool.withConnection { try $0.command(["CLIENT", "ID"]).integer })
        #expect(try pool.withConnection { try $0.command(["CLIENT", "ID"]).integer } == id)
        // The server drops the idle connection (as a restart does): the next call is not
        // failed on it, it gets a new connection (nothing was sent on the old one).
        #expect(try server.cli("CLIENT", "KILL", "ID", "\(id)") == "1")
        let next = try #require(try pool.withConnection { try $0.command(["CLIENT", "ID"]).integer })
        #expect(next != id)
        #expect(try pool.withConnection { try $0.command(["CLIENT", "ID"]).integer } == next)
    }

    @Test func aServerOutOfMemoryRefusesWritesWithItsOwnError() throws {
        let small = try RedisServer(maxMemory: "2mb")
        let connection = try connect(small.url)
        let value = RedisArgument(Data(count: 100_000))
        let refused = #expect(throws: RedisError.self) {
            for index in 0..<100 { try connection.command(["SET", RedisArgument("k\(index)"), value]) }
        }
        guard case .outOfMemory(let message) = refused else {
            Issue.record("expected outOfMemory, got \(String(describing: refused))")
            return
        }
        #expect(message.contains("maxmemory"))
        #expect(try connection.command(["GET", "k0"]).data?.count == 100_000)
    }
}

@Suite("Redis logins", .enabled(if: redisAvailable))
struct RedisLoginTests {
    @Test func aWrongOrMissingPasswordIsRefusedInOneLine() throws {
        let server = try RedisServer(password: "right")
        #expect(
            try RedisConnection(endpoint: try RedisEndpoint(url: server.url), timeout: .seconds(2)).command(["PING"])
                == .status("PONG"))
        for url in ["redis://:wrong@127.0.0.1:\(server.port)", "redis://127.0.0.1:\(server.port)"] {
            #expect {
                try RedisConnection(endpoint: try RedisEndpoint(url: url, environment: [:]), timeout: .seconds(2))
            } throws: { error in
                guard case .authenticationFailed = error as? RedisError else { return false }
                return "\(error)".contains("REDISCLI_AUTH") && !"\(error)".contains("\n")
            }
        }
        let viaEnvironment = try RedisEndpoint(
            url: "redis://127.0.0.1:\(server.port)", environment: ["REDISCLI_AUTH": "right"])
        #expect(
            try RedisConnection(endpoint: viaEnvironment, timeout: .seconds(2)).command(["PING"]) == .status("PONG"))
    }
}
