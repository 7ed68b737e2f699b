import Foundation
import Testing

@testable import CacheCore

@Suite struct AdminTests {
    private let operatorOrigin = ActionOrigin(user: "ops", host: "box", pid: 42, program: "cachedeck")

    private func populated() throws -> (TestStore, Cache<String, String>) {
        let fixture = try TestStore()
        let tiles = try fixture.store.cache("tiles", key: String.self, value: String.self)
        for index in 0..<2500 { try tiles.set("tile \(index)", for: "t\(index)", tags: index % 2 == 0 ? ["even"] : []) }
        let colors = try fixture.store.cache("colors", key: String.self, value: String.self)
        try colors.set("red", for: "4")
        return (fixture, tiles)
    }

    @Test func aRunRemovesWhatThePreviewCountedAndRestoreBringsItBack() throws {
        let (fixture, tiles) = try populated()
        _ = try tiles.get("t0")
        try fixture.store.flush()
        try fixture.store.flushTelemetry()
        let admin = fixture.store.admin
        let impact = try admin.preview(.invalidate(.tag("even", namespace: "tiles")))
        #expect(impact.entries == 1250)
        #expect(
            impact.bytes
                == Int(
                    try fixture.scalar("SELECT sum(size) FROM entries e JOIN entry_tags t ON t.entry_id = e.id") ?? 0))
        #expect(impact.recentHitShare == 1)
        #expect(impact.sampleKeys.count == 10 && impact.sampleKeys.allSatisfy { $0.hasPrefix("tiles/t") })
        #expect(try fixture.scalar("SELECT count(*) FROM audit") == 0)  // a preview changes nothing

        let outcome = try admin.run(.invalidate(.tag("even", namespace: "tiles")), origin: operatorOrigin)
        let sample = try #require(try admin.auditLog().first).sampleKeys
        #expect(sample.count == 5 && sample.allSatisfy { $0.hasPrefix("tiles/t") && Int($0.dropFirst(7)).map { $0 % 2 == 0 } == true })
        #expect(outcome.removed == impact.entries && outcome.bytes == impact.bytes && outcome.isUndoable)
        #expect(try tiles.count() == 1250)
        #expect(try fixture.scalar("SELECT sum(entry_count) FROM partitions") == 1250)

        try tiles.set("rewritten", for: "t0")
        #expect(try admin.restore(outcome.auditID, origin: operatorOrigin) == 1249)
        #expect(try tiles.get("t0") == "rewritten")
        #expect(try tiles.get("t2") == "tile 2")
        #expect(try tiles.count() == 2500)
        #expect(try fixture.scalar("SELECT count(*) FROM partitions") == 0)

        let log = try admin.auditLog()
        #expect(log.count == 2)
        #expect(log[0].restoredAuditID == outcome.auditID && log[0].entries == 1249 && log[0].target == nil)
        #expect(log[1].target == .invalidate(.tag("even", namespace: "tiles")) && log[1].origin == operatorOrigin)
        #expect(log[1].undoneAt != nil && !log[1].canUndo)
        #expect(throws: CacheError.nothingToRestore(reason: "action #\(outcome.auditID) was already undone")) {
            try admin.restore(outcome.auditID)
        }
    }

    @Test func aClearTakesEffectAtOnceForAnotherProcessThatKeepsWriting() throws {
        let fixture = try TestStore()
        let tiles = try fixture.store.cache("tiles", key: String.self, value: Int.self)
        try tiles.set((0..<5000).map { (key: "old\($0)", value: $0) })
        let app = try fixture.reopen()
        defer { try? app.close() }
        let appTiles = try app.cache("tiles", key: String.self, value: Int.self)
        #expect(try appTiles.get("old7") == 7)

        let outcome = try fixture.store.admin.run(.clear(namespace: "tiles"))
        #expect(outcome.removed == 5000 && outcome.isUndoable)
        // The app's handle still names the namespace's old row: its reads miss and its writes
        // land in the new row, visible to every reader and counted.
        #expect(try appTiles.get("old7") == nil)
        try appTiles.set(-1, for: "old8")
        try appTiles.set(1, for: "new1")
        #expect(try tiles.get("old8") == -1 && tiles.get("new1") == 1 && tiles.count() == 2)
        #expect(try fixture.store.inspector.namespace("tiles").entryCount == 2)

        // The undo brings the old entries back; what the app wrote since wins over its old value.
        #expect(try fixture.store.admin.restore(outcome.auditID) == 4999)
        #expect(try appTiles.get("old7") == 7 && appTiles.get("old8") == -1 && appTiles.get("new1") == 1)
        #expect(try tiles.count() == 5001 && fixture.store.inspector.namespace("tiles").entryCount == 5001)
        try appTiles.set(9, for: "new2")
        #expect(try tiles.get("new2") == 9)
    }

    @Test func clearingANamespaceLeavesTheOthersAndIsJournaledForMemoryTiers() throws {
        let (fixture, _) = try populated()
        let app = try fixture.reopen()
        defer { try? app.close() }
        _ = try app.cache("tiles", key: String.self, value: String.self, policy: .hybrid)
        let outcome = try fixture.store.admin.run(.clear(namespace: "tiles"))
        #expect(outcome.removed == 2500)
        #expect(try fixture.scalar("SELECT count(*) FROM entries WHERE namespace_id IN (SELECT id FROM namespaces)") == 1)
        let journal = try fixture.store.database.read { try $0.invalidations(after: 0) }
        #expect(journal.map(\.change) == [.invalidated(.namespace("tiles"))])
        #expect(try fixture.store.admin.preview(.clearAll).entries == 1)
        #expect(throws: InspectorError.noSuchNamespace("missing")) {
            try fixture.store.admin.preview(.clear(namespace: "missing"))
        }
    }

    @Test func aSweepRemovesOnlyPurgeableEntriesAndCannotBeUndone() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache(
            "s", key: Int.self, value: Int.self, policy: NamespacePolicy.default.withoutStaleWindow())
        for index in 0..<10 { try cache.set(index, for: index, expiration: .after(.seconds(index < 4 ? 1 : 100))) }
        fixture.clock.advance(by: .seconds(1))
        #expect(try fixture.store.admin.preview(.sweep(namespace: nil)).entries == 4)
        let outcome = try fixture.store.admin.run(.sweep(namespace: "s"))
        #expect(outcome.removed == 4 && !outcome.isUndoable)
        #expect(try fixture.scalar("SELECT count(*) FROM partitions") == 0)
        #expect(throws: CacheError.self) { try fixture.store.admin.restore(outcome.auditID) }
        #expect(throws: CacheError.nothingToRestore(reason: "there is no action #999 in the audit log")) {
            try fixture.store.admin.restore(999)
        }
    }

    @Test func keysPrefixesAndReadOnlyStores() throws {
        let (fixture, _) = try populated()
        let admin = fixture.store.admin
        #expect(try admin.preview(.invalidate(.keys(namespace: "tiles", keys: ["t1", "t2", "zz"]))).entries == 2)
        #expect(try admin.preview(.invalidate(.prefix(namespace: "tiles", prefix: "t12"))).entries == 111)
        #expect(try admin.preview(.invalidate(.key(namespace: "colors", key: "4"))).entries == 1)
        let reader = try CacheStore(path: fixture.path, options: .inspection())
        #expect(try reader.admin.preview(.clearAll).entries == 2501)
        #expect(throws: CacheError.readOnly(path: fixture.path)) { try reader.admin.run(.clearAll) }
    }

    @Test func aClearsShareOfRecentHitsIsItsShareOfTheWholeStore() throws {
        let (fixture, tiles) = try populated()
        let colors = try fixture.store.cache("colors", key: String.self, value: String.self)
        for _ in 0..<3 { _ = try tiles.get("t1") }
        _ = try colors.get("4")
        try fixture.store.flushTelemetry()
        #expect(try fixture.store.admin.preview(.clear(namespace: "tiles")).recentHitShare == 0.75)
        #expect(try fixture.store.admin.preview(.clear(namespace: "colors")).recentHitShare == 0.25)
        #expect(try fixture.store.admin.preview(.clearAll).recentHitShare == 1)
    }

    @Test func oldTrashIsPurged() throws {
        let (fixture, _) = try populated()
        try fixture.store.admin.run(.clear(namespace: "colors"))
        fixture.clock.advance(by: .seconds(8 * 24 * 3600))
        #expect(try fixture.store.admin.purgeTrash() == 1)
        #expect(try fixture.store.admin.auditLog().first?.canUndo == false)
    }
}
