import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore
@testable import CacheCoreRedis

/// Undo that cannot lose data (issue #27): a clear at `maxmemory` records its undo before it
/// takes effect, a killed clear's record says what its trash holds, an undo that did not
/// finish leaves the action restorable.
@Suite("Redis undo safety: maxmemory, killed clears and interrupted undos", .enabled(if: redisAvailable))
struct RedisUndoSafetyTests {
    func fill(_ store: RedisStore, count: Int) throws -> Cache<String, String> {
        let cache = try store.cache("tiles", key: String.self, value: String.self)
        let value = String(repeating: "t", count: 200)
        try cache.set((0..<count).map { (key: "t\($0)", value: value) })
        return cache
    }

    /// The server's `used_memory`.
    func usedMemory(_ raw: RedisConnection) throws -> Int {
        let info = try raw.command(["INFO", "memory"]).string ?? ""
        return info.split(separator: "\r\n").first { $0.hasPrefix("used_memory:") }
            .flatMap { Int($0.dropFirst("used_memory:".count)) } ?? 0
    }

    /// A process that has ended, as the origin of an action it "ran".
    func deadOrigin() throws -> ActionOrigin {
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try ProcessLauncher.run(dead)
        dead.waitUntilExit()
        return ActionOrigin(
            user: "ops", host: ProcessInfo.processInfo.hostName, pid: dead.processIdentifier, program: "x")
    }

    @Test(arguments: RedisDeployment.allCases)
    func aClearAtMaxmemoryRecordsItsUndoOrDoesNotTakeEffect(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let cache = try fill(store, count: 300)
        let raw = try fixture.connection()
        _ = try raw.command(["CONFIG", "SET", "maxmemory-policy", "noeviction"])
        // Limits from just above what the server holds upwards: some let the action's record
        // be written and then the server passes its limit as the clear takes effect, so a
        // plain write right after is refused (where the clear used to lose its undo).
        var passedTheLimit = 0
        for headroom in stride(from: 0, through: 6000, by: 40) {
            _ = try raw.command(["CONFIG", "SET", "maxmemory", "0"])
            _ = try raw.command(["CONFIG", "SET", "maxmemory", RedisArgument(try usedMemory(raw) + headroom)])
            let outcome = Result { try store.admin.run(.clear(namespace: "tiles")) }
            let tookEffect = try cache.count() == 0
            let refused = (try? raw.command(["SET", "probe", "x"])) == nil
            _ = try raw.command(["CONFIG", "SET", "maxmemory", "0"])
            _ = try raw.command(["DEL", "probe"])
            guard tookEffect else {
                #expect(throws: (any Error).self, "headroom \(headroom)") { try outcome.get() }
                continue
            }
            if refused { passedTheLimit += 1 }
            let id = try #require(try raw.command(["GET", "cachedeck:auditseq"]).integer)
            let record = try #require(try store.admin.auditRecord(id), "headroom \(headroom): \(outcome)")
            #expect(record.canUndo && record.entries == 300, "headroom \(headroom): \(outcome)")
            #expect(try store.admin.restore(record.id) == 300, "headroom \(headroom)")
            #expect(try cache.count() == 300)
        }
        #expect(passedTheLimit > 0, "no limit fell between the record and the clear")
    }

    @Test(arguments: RedisDeployment.allCases)
    func aKilledClearsRecordSaysWhatItsTrashHolds(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let cache = try fill(store, count: 2800)
        let cleared = try store.admin.run(.clear(namespace: "tiles"), origin: try deadOrigin())
        // What a kill while counting leaves: a partial count, no `finished`.
        _ = try fixture.server.cli("HDEL", "cachedeck:audit:\(cleared.auditID)", "finished")
        _ = try fixture.server.cli("HSET", "cachedeck:audit:\(cleared.auditID)", "entries", "554", "bytes", "1")
        let record = try #require(try store.admin.auditRecord(cleared.auditID))
        #expect(record.finishedAt == nil && record.entries == 2800 && record.bytes == cleared.bytes)
        #expect(try store.admin.auditLog(limit: 1).first?.entries == 2800)
        #expect(try store.admin.restore(cleared.auditID) == 2800 && cache.count() == 2800)
    }

    @Test(arguments: RedisDeployment.allCases)
    func anUndoThatLostTheServerLeavesTheActionRestorable(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let cache = try fill(store, count: 2500)
        let moved = try store.admin.run(.invalidate(.prefix(namespace: "tiles", prefix: "")))
        // An undo by this process that stopped half way and could not tidy up (the server
        // went away): the claim it left is this process's own, so the next undo takes over.
        let me = ActionOrigin.current
        _ = try fixture.server.cli("HSET", "cachedeck:audit:\(moved.auditID)", "restoring", "\(me.pid)@\(me.host)")
        // It had moved 900 entries back.
        _ = try fixture.server.cli(
            "EVAL",
            """
            local moved = 0
            for _, key in ipairs(redis.call('KEYS', ARGV[1] .. '*')) do
              if moved == 900 then break end
              redis.call('RENAME', key, ARGV[2] .. string.sub(key, #ARGV[1] + 1))
              moved = moved + 1
            end
            """, "0", "cachedeck:trash:\(moved.auditID):tiles:", "cachedeck:e:tiles:1:")
        #expect(try cache.count() == 900)
        #expect(try store.admin.auditRecord(moved.auditID)?.canUndo == true)
        #expect(try store.admin.restore(moved.auditID) == 1600)
        #expect(try cache.count() == 2500)
        #expect(throws: CacheError.self) { try store.admin.restore(moved.auditID) }
    }

    @Test(arguments: RedisDeployment.allCases)
    func anUndoHeldByALiveProcessIsRefusedAndADeadOnesIsTakenOver(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let cache = try fill(store, count: 1200)
        let moved = try store.admin.run(.invalidate(.prefix(namespace: "tiles", prefix: "")))
        let key = "cachedeck:audit:\(moved.auditID)"
        let host = ProcessInfo.processInfo.hostName
        _ = try fixture.server.cli("HSET", key, "restoring", "1@\(host)")  // init: alive, not us
        #expect {
            try store.admin.restore(moved.auditID)
        } throws: { "\($0)".contains("is being undone by pid 1") }
        #expect(try cache.count() == 0)
        _ = try fixture.server.cli("HSET", key, "restoring", "\(try deadOrigin().pid)@\(host)")
        #expect(try store.admin.restore(moved.auditID) == 1200 && cache.count() == 1200)
    }

    @Test(arguments: RedisDeployment.allCases)
    func anUndoOfAClearInterruptedAfterItsSwitchIsFinished(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let cache = try fill(store, count: 1500)
        let cleared = try store.admin.run(.clear(namespace: "tiles"))
        try cache.set("new", for: "written-since")
        // An undo killed after it set the generation back (step 2), before it moved what was
        // written in between and unlinked the emptied generation.
        let me = ActionOrigin.current
        _ = try fixture.server.cli("HSET", "cachedeck:audit:\(cleared.auditID)", "restoring", "\(me.pid)@\(me.host)")
        _ = try fixture.server.cli("HSET", "cachedeck:n:tiles", "generation", "1")
        _ = try fixture.server.cli("ZREM", "cachedeck:kept", "tiles:1")
        _ = try fixture.server.cli("SADD", "cachedeck:retired", "tiles:2")
        // The 1,500 cleared came back; the key written since is kept, not counted as restored.
        #expect(try store.admin.restore(cleared.auditID) == 1500)
        #expect(try cache.count() == 1501 && cache.get("written-since") == "new")
    }

    @Test(arguments: RedisDeployment.allCases)
    func anActionStoppedAtMaxmemorySaysWhatItHadDone(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let cache = try store.cache(
            "tiles", key: String.self, value: String.self, policy: .default.expiring(.after(.seconds(3600))))
        try cache.set((0..<3000).map { (key: "t\($0)", value: "v") })
        let target = AdminTarget.expiry(selector: .namespace("tiles"), change: .extend(milliseconds: 3_600_000))
        let raw = try fixture.connection()
        _ = try raw.command(["CONFIG", "SET", "maxmemory-policy", "noeviction"])
        // Growing room above what the server holds: refused at first, then room for the record
        // and some batches' kept times but not all (a TTL action keeps every old time).
        var stoppedPartWay = false
        for headroom in stride(from: 20_000, through: 600_000, by: 20_000) where !stoppedPartWay {
            _ = try raw.command(["CONFIG", "SET", "maxmemory", RedisArgument(try usedMemory(raw) + headroom)])
            let outcome = Result { try store.admin.run(target) }
            _ = try raw.command(["CONFIG", "SET", "maxmemory", "0"])
            let id = try raw.command(["GET", "cachedeck:auditseq"]).integer ?? 0
            guard case .failure(let error) = outcome, let record = try store.admin.auditRecord(id),
                record.restoredAuditID == nil
            else {
                if case .success(let done) = outcome { try store.admin.restore(done.auditID) }
                continue
            }
            stoppedPartWay = record.entries > 0
            let line = "\(error)"
            #expect(record.entries < 3000)
            #expect(
                line.contains("stopped after changing \(record.entries) of 3000 entries") || record.entries == 0,
                "\(line)")
            #expect(line.contains("out of memory") && !line.contains("nothing was stored") || record.entries == 0)
            #expect(try store.admin.restore(record.id) == record.entries)
        }
        #expect(stoppedPartWay, "no room let the action run part way")
    }
}
