import Foundation
import Testing

@testable import CacheCore

/// Format v4's partitions: clears and their undo in one step, selective actions that move
/// entries in place, and what an interrupted action leaves (see `Schema.partitions`).
@Suite struct PartitionTests {
    @Test func restoredEntriesKeepTheirPlaceInOldestFirstOrder() throws {
        let fixture = try TestStore()
        let mail = try fixture.store.cache(
            "mail", key: Int.self, value: String.self, policy: .default.keepingNewest(10))
        for id in 1...10 { try mail.set("old \(id)", for: id) }
        let outcome = try fixture.store.admin.run(.invalidate(.keys(namespace: "mail", keys: (1...5).map(String.init))))
        #expect(outcome.removed == 5)
        for id in 11...15 { try mail.set("new \(id)", for: id) }
        #expect(try fixture.store.admin.restore(outcome.auditID) == 5)
        // Fifteen entries for ten places: the next write evicts the oldest, which are the
        // restored ones, never the newest mail.
        try mail.set("new 16", for: 16)
        #expect(try mail.count() == 10)
        for id in 11...16 { #expect(try mail.get(id) != nil, "newest mail \(id) was kept") }
        for id in 1...5 { #expect(try mail.get(id) == nil, "restored old mail \(id) went first") }
    }

    @Test func anActionRecordsWhatItRemovedAfterEveryBatchAndCannotBeUndoneWhileItRuns() throws {
        // Every batch takes exactly its budget: they stay at 1,000 entries.
        let fixture = try TestStore { $0.batchStopwatch = steppingStopwatch(by: CacheStore.actionBatchBudget) }
        let tiles = try fixture.store.cache("tiles", key: Int.self, value: Int.self)
        try tiles.set((0..<3500).map { (key: $0, value: $0) })
        let admin = fixture.store.admin
        var seen: [ActionProgress] = []
        var midway: (entries: Int64?, finished: Int64?)?
        var refusal: (any Error)?
        let outcome = try admin.run(.invalidate(.prefix(namespace: "tiles", prefix: ""))) { progress in
            seen.append(progress)
            if seen.count == 2 {
                // What a kill at this moment would leave: the audit row counts both batches.
                midway = (
                    try? fixture.scalar("SELECT entries FROM audit ORDER BY id DESC LIMIT 1"),
                    try? fixture.scalar("SELECT finished_at FROM audit ORDER BY id DESC LIMIT 1")
                )
                do { try admin.restore(1) } catch { refusal = error }
                return false
            }
            return true
        }
        #expect(seen == [ActionProgress(done: 1000, total: 3500), ActionProgress(done: 2000, total: 3500)])
        #expect(midway?.entries == 2000 && midway?.finished == nil)
        #expect(
            refusal as? CacheError
                == .nothingToRestore(reason: "action #1 is still running (pid \(getpid())); undo it once it has ended"))
        #expect(outcome.isCancelled && outcome.removed == 2000 && outcome.isUndoable)
        #expect(try tiles.count() == 1500)
        #expect(try admin.auditLog().first?.finishedAt != nil)
        #expect(try admin.restore(outcome.auditID) == 2000)
        #expect(try tiles.count() == 3500)
    }

    @Test func anActionWhoseProcessDiedCanBeUndone() throws {
        let fixture = try TestStore()
        let tiles = try fixture.store.cache("tiles", key: Int.self, value: Int.self)
        try tiles.set((0..<1500).map { (key: $0, value: $0) })
        // An action cut off after its first batch, by a process that no longer exists.
        let dead = ActionOrigin(
            user: "ops", host: ProcessInfo.processInfo.hostName, pid: Int32.max - 1, program: "cachedeck")
        _ = try fixture.store.admin.run(.invalidate(.prefix(namespace: "tiles", prefix: "")), origin: dead) { _ in false
        }
        try rawExecute(path: fixture.path, "UPDATE audit SET finished_at = NULL")
        let record = try #require(try fixture.store.admin.auditLog().first)
        #expect(record.finishedAt == nil && record.entries == 1000 && record.canUndo)
        #expect(try fixture.store.admin.restore(record.id) == 1000)
        #expect(try tiles.count() == 1500)
    }

    @Test func anAppOnASupersededVersionNoLongerReadsOrWritesTheFile() throws {
        let fixture = try TestStore()
        let old = try fixture.store.cache("parts", key: Int.self, value: String.self, policy: .default.version("v1"))
        try old.set("v1 part", for: 1)
        let newer = try fixture.reopen()
        defer { try? newer.close() }
        let parts = try newer.cache("parts", key: Int.self, value: String.self, policy: .default.version("v2"))
        try parts.set("v2 part", for: 2)
        // The old app keeps going: nothing it writes is counted or seen by the new version.
        try old.set("v1 again", for: 3)
        #expect(try old.get(1) == nil && old.get(3) == nil)
        #expect(try parts.count() == 1 && parts.get(2) == "v2 part" && parts.get(3) == nil)
        #expect(try newer.inspector.namespace("parts").entryCount == 1)
    }

    @Test func aFormat3FileIsMigratedWithItsTrashRestorable() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        try olderFormatFile(
            at: path, version: 3,
            """
            INSERT INTO namespaces (id, name, created_at, updated_at) VALUES (1, 'tiles', 1, 1);
            INSERT INTO entries (namespace_id, key, value, size, created_at, accessed_at)
                VALUES (1, 'kept', x'22616222', 6, 1, 1);
            INSERT INTO audit (id, at, user, host, pid, program, target, entries, bytes)
                VALUES (7, 2, 'ops', 'box', 1, 'cachedeck', '{"clear":{"namespace":"tiles"}}', 1, 9);
            INSERT INTO trash (audit_id, entry_id, namespace_id, key, value, size, created_at, accessed_at, hits, version)
                VALUES (7, 2, 1, 'gone', x'2263646522', 9, 1, 1, 0, '');
            """)
        let store = try CacheStore(path: path, options: StoreOptions(clock: ManualClock()))
        defer { try? store.close() }
        #expect(try rawScalar(path: path, "PRAGMA user_version") == Int64(Schema.currentVersion))
        let tiles = try store.cache("tiles", key: String.self, value: String.self)
        #expect(try tiles.get("kept") == "ab" && tiles.get("gone") == nil && tiles.count() == 1)
        let record = try #require(try store.admin.auditLog().first)
        #expect(record.canUndo && record.finishedAt == 2)
        #expect(try store.admin.restore(record.id) == 1)
        #expect(try tiles.get("gone") == "cde" && tiles.count() == 2)
    }
}
