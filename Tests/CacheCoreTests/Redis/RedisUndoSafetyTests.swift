import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore
@testable import CacheCoreRedis

/// Undo that cannot lose data (issue #27), on a standalone server and on a cluster (#28): a
/// clear at `maxmemory` records its undo before it takes effect, a killed clear's record says
/// what its trash holds (a kill between slots too), an undo that did not finish leaves the
/// action restorable. Serialized: the `maxmemory` tests limit every primary of the cluster.
@Suite(
    "Redis undo safety: maxmemory, killed clears and interrupted undos", .enabled(if: redisAvailable), .sharedCluster,
    .serialized)
struct RedisUndoSafetyTests {
    func fill(_ store: RedisStore, count: Int) throws -> Cache<String, String> {
        let cache = try store.cache("tiles", key: String.self, value: String.self)
        let value = String(repeating: "t", count: 200)
        try cache.set((0..<count).map { (key: "t\($0)", value: value) })
        return cache
    }

    /// Whether a plain write next to `key` (in its slot) is refused.
    func refusesWrites(_ fixture: RedisFixture, near key: String) throws -> Bool {
        let raw = try fixture.connection(forKey: key)
        defer { _ = try? raw.command(["DEL", RedisArgument(key + ":probe")]) }
        return (try? raw.command(["SET", RedisArgument(key + ":probe"), "x"])) == nil
    }

    /// Sets `maxmemory` on every primary to what it uses plus `headroom` (0: no limit).
    func limitMemory(_ primaries: [RedisConnection], headroom: Int?) throws {
        for raw in primaries {
            _ = try raw.command(["CONFIG", "SET", "maxmemory", "0"])
            if let headroom {
                _ = try raw.command(["CONFIG", "SET", "maxmemory", RedisArgument(try usedMemory(raw) + headroom)])
            }
        }
    }

    /// The last audit id handed out.
    func lastAuditID(_ fixture: RedisFixture) throws -> Int64 {
        try fixture.connection(forKey: fixture.keys.auditSequence).command(["GET", RedisArgument(fixture.keys.auditSequence)])
            .integer ?? 0
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
        let primaries = try fixture.primaries()
        for raw in primaries { _ = try raw.command(["CONFIG", "SET", "maxmemory-policy", "noeviction"]) }
        defer { try? limitMemory(primaries, headroom: nil) }
        // Limits from just above what each primary holds upwards: some let the action's record
        // be written and then a server passes its limit as the clear takes effect, so a
        // plain write right after is refused (where the clear used to lose its undo).
        // 50 limits (a clear and its undo each: about 6 s on the cluster's three primaries).
        var passedTheLimit = 0
        for headroom in stride(from: 0, through: 6000, by: 120) {
            try limitMemory(primaries, headroom: headroom)
            let outcome = Result { try store.admin.run(.clear(namespace: "tiles")) }
            let tookEffect = try cache.count() == 0
            let refused =
                try refusesWrites(fixture, near: fixture.keys.namespace("tiles"))
                || refusesWrites(fixture, near: fixture.keys.auditIndex)
            try limitMemory(primaries, headroom: nil)
            guard tookEffect else {
                #expect(throws: (any Error).self, "headroom \(headroom)") { try outcome.get() }
                continue
            }
            if refused { passedTheLimit += 1 }
            let id = try lastAuditID(fixture)
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
        let record = fixture.keys.audit(cleared.auditID)
        let ledger = fixture.keys.ledger(cleared.auditID, namespace: "tiles")
        try fixture.cli("HDEL", record, "finished")
        try fixture.cli("HSET", record, "entries", "554", "bytes", "1")
        try fixture.cli("HSET", ledger, "entries", "554", "bytes", "1")
        let listed = try #require(try store.admin.auditRecord(cleared.auditID))
        #expect(listed.finishedAt == nil && listed.entries == 2800 && listed.bytes == cleared.bytes)
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
        let record = fixture.keys.audit(moved.auditID)
        try fixture.cli("HSET", record, "restoring", "\(me.pid)@\(me.host)")
        // It had moved 900 entries back.
        try moveBack(900, of: moved.auditID, in: "tiles", fixture)
        #expect(try cache.count() == 900)
        #expect(try store.admin.auditRecord(moved.auditID)?.canUndo == true)
        #expect(try store.admin.restore(moved.auditID) == 1600)
        #expect(try cache.count() == 2500)
        #expect(throws: CacheError.self) { try store.admin.restore(moved.auditID) }
    }

    /// Moves `count` of action `id`'s trash keys in `namespace` back into generation 1, as an
    /// undo killed part way leaves them (in the namespace's slot).
    func moveBack(_ count: Int, of id: Int64, in namespace: String, _ fixture: RedisFixture) throws {
        let hash = fixture.keys.namespace(namespace)
        try fixture.node(serving: hash).cli([
            "EVAL",
            """
            local moved = 0
            for _, key in ipairs(redis.call('KEYS', ARGV[1] .. '*')) do
              if moved == tonumber(ARGV[3]) then break end
              redis.call('RENAME', key, ARGV[2] .. string.sub(key, #ARGV[1] + 1))
              moved = moved + 1
            end
            """, "1", hash, fixture.keys.trash(id, namespace: namespace), fixture.keys.entries(namespace) + "1:", "\(count)",
        ])
    }

    @Test(arguments: RedisDeployment.allCases)
    func anUndoKilledBetweenNamespacesIsFinishedBySecondOne(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        // Six namespaces: on a cluster, spread over the primaries.
        let names = (0..<6).map { "n\($0)" }
        let caches = try names.map { name in
            let cache = try store.cache(name, key: String.self, value: String.self)
            try cache.set((0..<400).map { (key: "k\($0)", value: "v", tags: $0 % 2 == 0 ? ["even"] : []) })
            return cache
        }
        let moved = try store.admin.run(.invalidate(.tag("even")))
        #expect(try moved.removed == 1200 && caches.map { try $0.count() } == Array(repeating: 200, count: 6))
        // An undo killed after it finished n0 and while it was in n1 (half moved back).
        let me = ActionOrigin.current
        let record = fixture.keys.audit(moved.auditID)
        try fixture.cli("HSET", record, "restoring", "\(me.pid)@\(me.host)")
        try moveBack(200, of: moved.auditID, in: "n0", fixture)
        let ledger = fixture.keys.ledger(moved.auditID, namespace: "n0")
        try fixture.cli("HSET", ledger, "restored", "1")
        try moveBack(100, of: moved.auditID, in: "n1", fixture)
        #expect(try store.admin.auditRecord(moved.auditID)?.canUndo == true)
        #expect(try store.admin.restore(moved.auditID) == 900)
        #expect(try caches.map { try $0.count() } == Array(repeating: 400, count: 6))
    }

    @Test(arguments: RedisDeployment.allCases)
    func aClearAllKilledBetweenSlotsSaysWhatItsTrashHoldsAndUndoesIt(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let sizes = (0..<6).map { 100 + $0 * 10 }
        let caches = try sizes.indices.map { index in
            let cache = try store.cache("n\(index)", key: String.self, value: String.self)
            try cache.set((0..<sizes[index]).map { (key: "k\($0)", value: "v") })
            return cache
        }
        // Killed once the first two namespaces (100 and 110 entries) were cleared: a stop
        // there, then no `finished`, by a process that has ended. The rest were not touched.
        let outcome = try store.admin.run(.clearAll, origin: try deadOrigin()) { $0.done < 210 }
        let record = fixture.keys.audit(outcome.auditID)
        try fixture.cli("HDEL", record, "finished")
        try fixture.cli("HSET", record, "entries", "0", "bytes", "0")
        let cleared = try caches.filter { try $0.count() == 0 }.count
        let listed = try #require(try store.admin.auditRecord(outcome.auditID))
        #expect(cleared == 2 && listed.finishedAt == nil && listed.entries == 210 && listed.canUndo)
        #expect(try store.admin.restore(outcome.auditID) == 210)
        #expect(try caches.map { try $0.count() } == sizes)
    }

    @Test func whileANamespacesSlotIsBeingMovedItsActionsAndUndosWait() throws {
        let fixture = try RedisFixture(.cluster)
        let store = try fixture.open()
        defer { store.close() }
        let cache = try fill(store, count: 300)
        let moved = try store.admin.run(.invalidate(.prefix(namespace: "tiles", prefix: "t1")))
        #expect(moved.removed == 111)
        // A reshard of the namespace's slot, half way: its keys could be on either node.
        let hash = fixture.keys.namespace("tiles")
        let slot = RedisArgument(ClusterSlot.of(Array(hash.utf8)))
        let home = try fixture.connection(forKey: hash)
        let homeID = try #require(try home.command(["CLUSTER", "MYID"]).string)
        let other = try #require(try fixture.primaries().first { try $0.command(["CLUSTER", "MYID"]).string != homeID })
        let otherID = try #require(try other.command(["CLUSTER", "MYID"]).string)
        _ = try other.command(["CLUSTER", "SETSLOT", slot, "IMPORTING", RedisArgument(homeID)])
        _ = try home.command(["CLUSTER", "SETSLOT", slot, "MIGRATING", RedisArgument(otherID)])
        func settle() throws {
            for node in [home, other] { _ = try node.command(["CLUSTER", "SETSLOT", slot, "STABLE"]) }
        }
        defer { try? settle() }

        #expect {
            try store.admin.run(.clear(namespace: "tiles"))
        } throws: { isOneLine($0) { _ in true } && "\($0)".contains("being moved between nodes") }
        #expect {
            try store.admin.restore(moved.auditID)
        } throws: { isOneLine($0) { _ in true } && "\($0)".contains("stays restorable") }
        #expect(try cache.count() == 189 && store.admin.auditRecord(moved.auditID)?.canUndo == true)
        try settle()
        #expect(try store.admin.restore(moved.auditID) == 111 && cache.count() == 300)
    }

    /// A live reshard of the namespace's slot, as `redis-cli --cluster reshard` does it
    /// (`SETSLOT IMPORTING`/`MIGRATING`, `MIGRATE` of its keys, `SETSLOT NODE`), begun after
    /// the first batch of a prefix invalidation: the action stops in one line saying what it
    /// removed, or finishes; what it removed is listed and all of it comes back by its undo,
    /// after the move; a clear asked for half way is refused; no entry is lost.
    @Test func anActionDuringALiveReshardOfItsSlotLosesNothing() throws {
        let fixture = try RedisFixture(.cluster)
        let store = try fixture.open()
        defer { store.close() }
        let total = 4000
        let cache = try fill(store, count: total)
        let hash = fixture.keys.namespace("tiles")
        let slot = ClusterSlot.of(Array(hash.utf8))
        let home = try fixture.connection(forKey: hash)
        let homeID = try #require(try home.command(["CLUSTER", "MYID"]).string)
        let other = try #require(try fixture.primaries().first { try $0.command(["CLUSTER", "MYID"]).string != homeID })
        let otherID = try #require(try other.command(["CLUSTER", "MYID"]).string)
        /// Moves up to `count` keys of the slot from home to other; returns how many it moved.
        func migrate(_ count: Int) throws -> Int {
            let names = try home.command(["CLUSTER", "GETKEYSINSLOT", RedisArgument(slot), RedisArgument(count)])
                .array?.compactMap(\.data) ?? []
            guard !names.isEmpty else { return 0 }
            let reply = try home.command(
                ["MIGRATE", RedisArgument(other.endpoint.host), RedisArgument(other.endpoint.port), "", 0, 5000, "KEYS"]
                    + names.map { RedisArgument($0) })
            #expect(reply.string == "OK", "\(reply)")
            return names.count
        }

        let target = AdminTarget.invalidate(.prefix(namespace: "tiles", prefix: "t"))
        let preview = try store.admin.preview(target).entries
        #expect(preview == total)
        var began = false
        let result = Result {
            try store.admin.run(target) { _ in
                guard !began else { return true }
                began = true
                // The reshard begins: half the slot's keys move, the namespace's hash among them or not.
                _ = try? other.command(["CLUSTER", "SETSLOT", RedisArgument(slot), "IMPORTING", RedisArgument(homeID)])
                _ = try? home.command(["CLUSTER", "SETSLOT", RedisArgument(slot), "MIGRATING", RedisArgument(otherID)])
                _ = try? migrate(total / 2)
                return true
            }
        }
        let halfWay = Result { try store.admin.run(.clear(namespace: "tiles")) }
        // The reshard ends: the rest of the keys move, every primary learns the new owner.
        while try migrate(1000) > 0 {}
        for node in try fixture.primaries() {
            _ = try node.command(["CLUSTER", "SETSLOT", RedisArgument(slot), "NODE", RedisArgument(otherID)])
        }

        #expect(began, "the reshard began during the action")
        if case .failure(let error) = halfWay {
            #expect(isOneLine(error) { _ in true } && "\(error)".contains("being moved between nodes"), "\(error)")
        } else {
            Issue.record("a clear during the reshard was not refused")
        }
        let id: Int64
        switch result {
        case .success(let outcome):
            #expect(outcome.removed == preview)
            id = outcome.auditID
        case .failure(let error):
            #expect(isOneLine(error) { _ in true } && "\(error)".contains("stopped after removing"), "\(error)")
            let number = "\(error)".firstMatch(of: /action #([0-9]+)/).flatMap { Int64($0.1) }
            id = try #require(number, "\(error)")
        }
        let record = try #require(try store.admin.auditRecord(id))
        let left = try cache.count()
        #expect(record.entries == total - left && record.entries > 0, "listed = removed")
        #expect(try store.admin.restore(id) == record.entries, "restored = removed")
        #expect(try cache.count() == total, "no entry lost")
    }

    @Test(arguments: RedisDeployment.allCases)
    func anUndoHeldByALiveProcessIsRefusedAndADeadOnesIsTakenOver(_ deployment: RedisDeployment) throws {
        let fixture = try RedisFixture(deployment)
        let store = try fixture.open()
        defer { store.close() }
        let cache = try fill(store, count: 1200)
        let moved = try store.admin.run(.invalidate(.prefix(namespace: "tiles", prefix: "")))
        let key = fixture.keys.audit(moved.auditID)
        let host = ProcessInfo.processInfo.hostName
        try fixture.cli("HSET", key, "restoring", "1@\(host)")  // init: alive, not us
        #expect {
            try store.admin.restore(moved.auditID)
        } throws: { "\($0)".contains("is being undone by pid 1") }
        #expect(try cache.count() == 0)
        try fixture.cli("HSET", key, "restoring", "\(try deadOrigin().pid)@\(host)")
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
        let keys = fixture.keys
        try fixture.cli("HSET", keys.audit(cleared.auditID), "restoring", "\(me.pid)@\(me.host)")
        try fixture.cli("HSET", keys.namespace("tiles"), "generation", "1")
        try fixture.cli("ZREM", keys.kept("tiles"), "tiles:1")
        try fixture.cli("SADD", keys.retired("tiles"), "tiles:2")
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
        let primaries = try fixture.primaries()
        for raw in primaries { _ = try raw.command(["CONFIG", "SET", "maxmemory-policy", "noeviction"]) }
        defer { try? limitMemory(primaries, headroom: nil) }
        // Growing room above what each primary holds: refused at first, then room for the
        // record and some batches' kept times but not all (a TTL action keeps every old time).
        var stoppedPartWay = false
        for headroom in stride(from: 20_000, through: 600_000, by: 20_000) where !stoppedPartWay {
            try limitMemory(primaries, headroom: headroom)
            let outcome = Result { try store.admin.run(target) }
            try limitMemory(primaries, headroom: nil)
            let id = try lastAuditID(fixture)
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
