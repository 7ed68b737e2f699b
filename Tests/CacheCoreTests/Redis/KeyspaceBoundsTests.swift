@testable import CacheCoreRedis
import CacheDeckTestSupport
import Foundation
import Synchronization
import Testing

/// The keyspace tree and the census keep bounded memory whatever the keyspace's size.
@Suite("Keyspace bounds")
struct KeyspaceBoundsTests {
    func facts(_ bytes: Int) -> KeyspaceTree.KeyFacts {
        KeyspaceTree.KeyFacts(type: .string, expiresAt: nil, bytes: bytes, isSampled: false)
    }

    func level(_ tree: KeyspaceTree, _ prefix: String, complete: Bool = true) -> KeyspaceLevel {
        tree.level(
            Data(prefix.utf8), limit: 100, isComplete: complete, separatorText: ":",
            scan: KeyspaceScanProgress(
                keysFound: tree.keyCount, keysInDatabase: 0, batches: 1, isMatchScan: false, isComplete: complete))
    }

    @Test func aListedKeyFoundTwiceCountsOnce() {
        var tree = KeyspaceTree(root: Data(), separator: ":")
        let first = tree.insert(Data("user:1".utf8), facts(10))
        let again = tree.insert(Data("user:1".utf8), facts(10))
        #expect(first && !again)
        let root = level(tree, "")
        #expect(root.keys == KeyspaceAmount(1) && root.bytes == KeyspaceAmount(10) && root.unlistedKeys == 0)
    }

    @Test func pastItsBoundsTheTreeCountsKeysWithoutListingThemAndMarksTheTotalsAsEstimates() {
        var tree = KeyspaceTree(root: Data(), separator: ":", maxKeys: 2, maxPrefixes: 3)
        for index in 0..<5 { tree.insert(Data("user:\(index)".utf8), facts(10)) }
        tree.insert(Data("cache:page:1".utf8), facts(7))  // `cache:` is the third prefix; `cache:page:` is past the bound
        tree.insert(Data("plain".utf8), facts(1))
        #expect(tree.listedKeys == 2 && tree.prefixCount == 3)
        let root = level(tree, "")
        #expect(root.keys.value == 7 && root.keys.mark == "~" && root.bytes.value == 58)
        #expect(root.unlistedKeys == 5)
        let users = level(tree, "user:")
        #expect(users.keys.value == 5 && users.unlistedKeys == 3 && users.children.count == 2)
        let cache = level(tree, "cache:")
        #expect(cache.keys == KeyspaceAmount(1, isSampled: true) && cache.children.isEmpty && cache.unlistedKeys == 1)
        // A tree within its bounds is exact.
        var small = KeyspaceTree(root: Data(), separator: ":")
        for index in 0..<5 { small.insert(Data("user:\(index)".utf8), facts(10)) }
        #expect(level(small, "").keys == KeyspaceAmount(5) && level(small, "user:").children.count == 5)
    }

    @Test func aLevelShowsTheLargestChildrenFirstWhenCut() {
        var tree = KeyspaceTree(root: Data(), separator: ":")
        for index in 0..<1000 { tree.insert(Data("k\(index)".utf8), facts(index % 97)) }
        let shown = tree.level(
            Data(), limit: 10, isComplete: true, separatorText: ":",
            scan: KeyspaceScanProgress(keysFound: 1000, keysInDatabase: 0, batches: 1, isMatchScan: false, isComplete: true))
        #expect(shown.childCount == 1000 && shown.children.count == 10)
        let expected = (0..<1000).map { ("k\($0)", $0 % 97) }.sorted {
            $0.1 != $1.1 ? $0.1 > $1.1 : Data($0.0.utf8).lexicographicallyPrecedes(Data($1.0.utf8))
        }.prefix(10).map(\.0)
        #expect(shown.children.map(\.nameText) == expected)
    }

    /// The scan reads every primary at once: more reads than cores all run together (each
    /// waits here until every one has started, which `concurrentPerform` never lets happen).
    @Test func everyPrimarysReadRunsAtOnceWhateverTheCores() {
        final class Started: Sendable { let count = Atomic(0) }
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let started = Started()
        let deadline = ContinuousClock.now + .seconds(10)
        let sawAll = threadPerTask(count) { index in
            started.count.add(1, ordering: .sequentiallyConsistent)
            while started.count.load(ordering: .sequentiallyConsistent) < count && ContinuousClock.now < deadline {
                sched_yield()
            }
            return (index, started.count.load(ordering: .sequentiallyConsistent) == count)
        }
        #expect(sawAll.map(\.0) == Array(0..<count) && sawAll.allSatisfy(\.1))
    }

    @Test func censusExpiryTimesKeepAGrainThatRoundsUp() {
        let now: Int64 = 1_699_999_980_000  // a whole minute
        // To the second for two hours: never counted expired early.
        #expect(ExpiryGrain.bucket(now + 1, from: now) == now + 1000)
        #expect(ExpiryGrain.bucket(now + 5000, from: now) == now + 5000)
        // To the minute up to eight days, down: a TTL of whole hours stays in its hour.
        #expect(ExpiryGrain.bucket(now + 3 * 3_600_000 + 59_999, from: now) == now + 3 * 3_600_000)
        #expect(ExpiryGrain.bucket(now + 3 * 3_600_000, from: now) == now + 3 * 3_600_000)
        // One bucket beyond, past the timeline's last edge (seven days).
        #expect(ExpiryGrain.bucket(now + 30 * 86_400_000, from: now) == now + 8 * 86_400_000)
        // However many distinct times, at most 7,200 + 11,520 + 1 buckets a namespace.
        let buckets = Set((0..<200_000).map { ExpiryGrain.bucket(now + Int64($0) * 4_999, from: now) })
        #expect(buckets.count <= 7_200 + 11_520 + 1)
    }
}

/// A scan past the tree's bound on a real server.
@Suite("Keyspace scan past its bound", .enabled(if: redisAvailable))
struct KeyspaceScanBoundTests {
    @Test func keysPastTheBoundAreCountedWithTheirMemoryButNotListed() throws {
        let server = try RedisServer()
        let writer = try RedisConnection(endpoint: try RedisEndpoint(url: server.url, environment: [:]), timeout: .seconds(5))
        _ = try writer.pipeline(
            (0..<200).map { index -> [RedisArgument] in
                ["SET", RedisArgument("user:\(index)"), RedisArgument(String(repeating: "x", count: index))]
            })
        let sizes = try writer.pipeline(
            (0..<200).map { index -> [RedisArgument] in ["MEMORY", "USAGE", RedisArgument("user:\(index)")] })
        let memory = sizes.compactMap { $0.integer }.reduce(0, +)
        let keyspace = try RedisKeyspace(url: server.url, environment: [:])
        guard case .single(let pool) = keyspace.servers else {
            Issue.record("expected one server")
            return
        }
        let scan = KeyspaceScan(servers: .single(pool), prefix: Data(), separator: ":", batchSize: 20, idleShare: 0, maxKeys: 50)
        try scan.finish()
        let users = scan.level(Data("user:".utf8))
        #expect(users.keys.value == 200 && users.keys.mark == "~" && users.unlistedKeys == 150)
        #expect(users.children.count == 50 && users.children.allSatisfy { $0.type == .string })
        #expect(users.bytes.value == Int(memory) && users.bytes.mark == "~")
    }

    @Test func aScanWhoseConnectionDropsWithBatchesInFlightAsksForThemAgainAndCountsEveryKeyOnce() throws {
        let server = try RedisServer()
        let writer = try RedisConnection(endpoint: try RedisEndpoint(url: server.url, environment: [:]), timeout: .seconds(5))
        _ = try writer.pipeline((0..<2000).map { ["SET", RedisArgument("user:\($0)"), "v"] })
        let scan = try RedisKeyspace(url: server.url, environment: [:]).scan(batchSize: 100)
        for _ in 0..<3 { try scan.step() }
        let before = scan.progress.keysFound
        #expect(before > 0 && before < 2000)
        // Every other client goes, the scan's own connection with a SCAN and facts in flight.
        #expect(try writer.command(["CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"]).integer ?? 0 >= 1)
        #expect(throws: RedisError.self) { try scan.step() }
        #expect(scan.progress.keysFound == before)
        let progress = try scan.finish()
        #expect(progress.isComplete && progress.keysFound == 2000)
        #expect(scan.level(Data("user:".utf8)).keys == KeyspaceAmount(2000))
    }
}

/// A prefix's breakdown by type and TTL, from the keys the tree lists.
@Suite("Keyspace breakdown")
struct KeyspaceBreakdownTests {
    @Test func keysAndMemoryByTypeAndTTLWithUnlistedKeysApart() {
        var tree = KeyspaceTree(root: Data(), separator: ":", maxKeys: 5)
        let now: Int64 = 1_000_000_000
        let keys: [(String, RedisKeyType, Int64?, Int)] = [
            ("user:1", .string, nil, 100), ("user:2", .hash, now + 60_000, 300), ("user:a:3", .hash, now + 7_200_000, 50),
            ("user:4", .string, now - 5, 10), ("other", .set, nil, 999), ("user:5", .zset, now + 10 * 86_400_000, 7),
            ("user:6", .string, nil, 40),
        ]
        for (key, type, expiresAt, bytes) in keys {
            tree.insert(Data(key.utf8), KeyspaceTree.KeyFacts(type: type, expiresAt: expiresAt, bytes: bytes, isSampled: false))
        }
        let progress = KeyspaceScanProgress(keysFound: 7, keysInDatabase: 7, batches: 1, isMatchScan: false, isComplete: true)
        let user = tree.breakdown(Data("user:".utf8), now: now, isComplete: true, scan: progress)
        // Five keys listed (the bound), so user:5 and user:6 are counted, not listed.
        #expect(user.keys == KeyspaceAmount(6, isSampled: true) && user.bytes.value == 507)
        #expect(user.types.map(\.name) == ["hash", "string"] && user.types.map(\.keys) == [2, 2])
        #expect(user.types.map(\.bytes) == [350, 110])
        #expect(user.expiries.map(\.name) == ["expired", "under 1 hour", "1 hour to 1 day", "never"])
        #expect(user.expiries.map(\.bytes) == [10, 300, 50, 100])
        #expect(user.unlisted == KeyspaceBreakdown.Share(name: "not listed", keys: 2, bytes: 47))
        let all = tree.breakdown(Data(), now: now, isComplete: false, scan: progress)
        #expect(all.keys.isLowerBound && all.types.first?.name == "set" && all.types.reduce(0) { $0 + $1.keys } == 5)
        #expect(tree.breakdown(Data("none:".utf8), now: now, isComplete: true, scan: progress).keys.value == 0)
    }
}
