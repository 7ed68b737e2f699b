import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// Memory tiers follow what other store instances (and processes) did to the file.
@Suite struct CoherenceTests {
    private let policy = NamespacePolicy.hybrid.expiring(.never)

    @Test func anInvalidationElsewhereDropsTheMemoryCopyOnTheNextCheck() throws {
        let fixture = try TestStore { $0.coherenceInterval = .seconds(3600) }
        let app = try fixture.store.cache("colors", key: Int.self, value: String.self, policy: policy)
        try app.set("red", for: 4)
        try app.set("blue", for: 1)
        let console = try fixture.reopen()
        #expect(try console.invalidate(.key(namespace: "colors", key: "4")).totalRemoved == 1)
        #expect(try app.get(4) == "red")  // not checked yet: served from memory
        try fixture.store.synchronize()
        #expect(try app.get(4) == nil)
        #expect(try app.get(1) == "blue")
    }

    @Test func aRewriteElsewhereDropsTheMemoryCopy() throws {
        let fixture = try TestStore { $0.coherenceInterval = .seconds(3600) }
        let app = try fixture.store.cache("colors", key: Int.self, value: String.self, policy: policy)
        try app.set("red", for: 4)
        let other = try fixture.reopen().cache("colors", key: Int.self, value: String.self, policy: policy)
        fixture.clock.advance(by: .milliseconds(1))
        try other.set("crimson", for: 4)
        try fixture.store.synchronize()
        #expect(try app.get(4) == "crimson")
    }

    @Test func aWriteBehindFlushElsewhereDropsTheCopyEvenWhenTheSetWasLongBefore() throws {
        let fixture = try TestStore { $0.coherenceInterval = .seconds(3600) }
        let app = try fixture.store.cache("colors", key: Int.self, value: String.self, policy: policy)
        try app.set("red", for: 4)
        let other = try fixture.reopen()
        var behind = NamespacePolicy.performance.expiring(.never)
        behind.writeBehind = .seconds(30)
        let writer = try other.cache("colors", key: Int.self, value: String.self, policy: behind)
        fixture.clock.advance(by: .seconds(1))
        try writer.set("crimson", for: 4)  // waits in the other store's memory
        fixture.clock.advance(by: .seconds(9))
        try other.cache("elsewhere", key: Int.self, value: Int.self).set(1, for: 1)
        try fixture.store.synchronize()  // sees that commit; nothing to drop yet
        #expect(try app.get(4) == "red")
        fixture.clock.advance(by: .seconds(20))
        try other.flush()  // the row is stamped with the set's time, 29 s ago
        try fixture.store.synchronize()
        #expect(try app.get(4) == "crimson")
    }

    @Test func ownWritesAndReadsKeepTheirCopies() throws {
        let fixture = try TestStore { $0.coherenceInterval = .seconds(3600) }
        let app = try fixture.store.cache("colors", key: Int.self, value: String.self, policy: policy)
        try app.set("red", for: 4)
        try app.remove(9)
        try fixture.store.synchronize()
        #expect(app.runtime.memory?.count == 1)
    }

    @Test func aProcessThatFellBehindTheJournalClearsItsMemory() throws {
        let fixture = try TestStore { $0.coherenceInterval = .seconds(3600) }
        let app = try fixture.store.cache("colors", key: Int.self, value: String.self, policy: policy)
        try app.set("red", for: 4)
        try rawExecute(
            path: fixture.path,
            """
            INSERT INTO invalidations (seq, at, origin, selector, removed) VALUES (100000, 0, 'x', '{"all":{}}', 0);
            DELETE FROM invalidations WHERE seq < 100000;
            INSERT INTO invalidations (at, origin, selector, removed) VALUES (0, 'x', 'not json', 0);
            """)
        try fixture.store.synchronize()
        #expect(app.runtime.memory?.count == 0)
    }

    @Test func setsAreJournaledOnlyWhileAnotherInstanceHoldsCopies() throws {
        let fixture = try TestStore { $0.coherenceInterval = .seconds(3600) }
        let app = try fixture.store.cache("colors", key: Int.self, value: String.self, policy: policy)
        try app.set("red", for: 4)
        try app.set([(1, "blue"), (2, "green")])
        #expect(try fixture.scalar("SELECT count(*) FROM entry_writes") == 0, "no other instance copies from it")
        let other = try fixture.reopen()
        fixture.clock.advance(by: .milliseconds(1))
        try other.cache("colors", key: Int.self, value: String.self, policy: .databaseOnly.expiring(.never)).set("crimson", for: 4)
        #expect(try fixture.scalar("SELECT count(*) FROM entry_writes") == 1, "the app holds copies")
        try fixture.store.synchronize()
        #expect(app.runtime.memory?.count == 2, "only the rewritten key's copy goes")
        #expect(try app.get(4) == "crimson")
    }

    @Test func theWriteJournalKeepsOnlyItsNewestRows() throws {
        let fixture = try TestStore { $0.coherenceInterval = .seconds(3600) }
        _ = try fixture.store.cache("colors", key: Int.self, value: String.self, policy: policy)
        let writer = try fixture.reopen().cache("bulk", key: Int.self, value: Int.self)
        try writer.set((0..<12_500).map { (key: $0, value: $0) })
        let kept = try #require(try fixture.scalar("SELECT count(*) FROM entry_writes"))
        #expect(kept > SQLiteConnection.journalRetention && kept < SQLiteConnection.journalRetention + 1000, "\(kept)")
        #expect(try fixture.scalar("SELECT max(seq) FROM entry_writes") == 12_500)
    }

    @Test func aProcessThatFellBehindTheWriteJournalClearsItsMemory() throws {
        let fixture = try TestStore { $0.coherenceInterval = .seconds(3600) }
        let app = try fixture.store.cache("colors", key: Int.self, value: String.self, policy: policy)
        try app.set("red", for: 4)
        try rawExecute(
            path: fixture.path,
            """
            INSERT INTO entry_writes (seq, namespace_id, key, written_at) VALUES (100000, 99, 'x', 0);
            DELETE FROM entry_writes WHERE seq < 100000;
            """)
        try fixture.store.synchronize()
        #expect(app.runtime.memory?.count == 0)
    }

    @Test func theBackgroundCheckRunsWithinTheInterval() throws {
        let fixture = try TestStore { $0.coherenceInterval = .milliseconds(20) }
        let app = try fixture.store.cache("colors", key: Int.self, value: String.self, policy: policy)
        try app.set("red", for: 4)
        try fixture.reopen().invalidate(.key(namespace: "colors", key: "4"))
        #expect(eventually { app.runtime.memory?.count == 0 } != nil)
    }

    @Test func anotherProcessPurgingAKeyReachesThisProcessesMemory() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        let store = try CacheStore(path: path, options: StoreOptions(coherenceInterval: .seconds(3600)))
        let app = try store.cache("colors", key: String.self, value: String.self, policy: policy)
        try app.set("red", for: "4")
        try app.set("blue", for: "1")

        let purge = try HelperProcess(["invalidate", path, "colors", "4"])
        try purge.waitForLine("removed 1")
        #expect(try purge.waitForExit().succeeded)
        let rewrite = try HelperProcess(["set", path, "colors", "1", "navy"])
        try rewrite.waitForLine("ok")
        #expect(try rewrite.waitForExit().succeeded)

        #expect(try app.get("4") == "red")
        try store.synchronize()
        #expect(try app.get("4") == nil)
        #expect(try app.get("1") == "navy")
    }
}
