import CacheDeckTestSupport
import Foundation
import Testing

@testable import CacheCore

/// A real full filesystem: a 4 MB tmpfs filled through the library until a set fails. The
/// app stops short of the room kept for removals, and a clear, a sweep, a key invalidation or
/// a trash purge then frees space (deleting, since a trash copy would free nothing), after
/// which the app writes again. Needs root to mount the tmpfs (as here and in CI).
@Suite(.serialized, .enabled(if: Tmpfs.isAvailable, "mounting a tmpfs needs root on Linux"))
struct FullDiskTests {
    /// A 4 MB tmpfs with a cache file filled by an app until a set failed.
    struct FilledDisk {
        let disk: Tmpfs
        let path: String
        let clock = ManualClock()
        let tiles: Int

        init(expiry: Duration? = nil, before: (CacheStore) throws -> Void = { _ in }) throws {
            disk = try Tmpfs(kilobytes: 4096)
            path = disk.file("cache.sqlite")
            let app = try CacheStore(path: path, options: StoreOptions(clock: clock))
            try before(app)
            let (tiles, error) = try FullDisk.fill(app, expiry: expiry)
            self.tiles = tiles
            #expect(error as? CacheError == .diskFull(path: path))
            #expect("\(error)" == "disk full while writing \(path); nothing stored was lost")
            #expect(tiles > 200, "the disk held \(tiles) tiles")
            try app.close()
        }

        /// A store as the CLI opens one to run actions.
        func tool() throws -> CacheStore {
            var options = StoreOptions.inspection(writable: true)
            options.clock = clock
            return try CacheStore(path: path, options: options)
        }

        /// An app writes again, and everything it did not remove is still there.
        func expectTheAppWritesAgain(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let app = try CacheStore(path: path, options: StoreOptions(clock: clock))
            defer { try? app.close() }
            let tiles = try app.dataCache("tiles", key: Int.self, policy: NamespacePolicy(expiration: .never))
            for index in 0..<100 { try tiles.set(Data(repeating: 9, count: 2000), for: 1_000_000 + index) }
            #expect(try tiles.get(1_000_042) == Data(repeating: 9, count: 2000), sourceLocation: sourceLocation)
            #expect(try FullDisk.keptIsWhole(app), sourceLocation: sourceLocation)
            try expectIntegrity(path, sourceLocation: sourceLocation)
        }
    }

    @Test func anAppStopsShortOfTheReserveAndAClearOfTheFullDiskDeletesWithoutUndoAndGivesItRoom() throws {
        let filled = try FilledDisk()
        let reserve = DiskRoom.defaultReserve(DiskRoom.statistics(-1, filled.disk.path))
        #expect(reserve == 256 << 10)
        let before = filled.disk.freeBytes
        #expect(before > 0, "the reserve is still free")

        let tool = try filled.tool()
        #expect(try tool.admin.preview(.clear(namespace: "tiles")).isDiskFull)
        let outcome = try tool.admin.run(.clear(namespace: "tiles"))
        #expect(outcome.removed == filled.tiles && outcome.wasDiskFull && !outcome.isUndoable)
        #expect(outcome.notRemoved == 0 && outcome.isAudited && outcome.auditID > 0)
        let record = try #require(try tool.admin.auditLog().first)
        #expect(record.entries == filled.tiles && !record.canUndo && record.finishedAt != nil)
        let space = try tool.diskSpace()
        #expect(space.logBytes == 0, "the -wal's room went back to the filesystem")
        #expect(space.fileFree > filled.tiles * 2000, "the tiles' pages are free for new entries")
        try tool.close()
        print(
            "full disk, clear: 4 MB tmpfs held \(filled.tiles) tiles; free \(before / 1024) kB when the app was "
                + "refused (reserve \(reserve / 1024) kB); after the clear \(filled.disk.freeBytes / 1024) kB on the "
                + "filesystem and \(space.fileFree / 1024) kB inside the file")
        try filled.expectTheAppWritesAgain()
    }

    @Test func aSweepOfTheFullDiskDeletesTheExpiredInBatchesThatFit() throws {
        let filled = try FilledDisk(expiry: .seconds(60))
        filled.clock.advance(by: .seconds(120))
        let tool = try filled.tool()
        let outcome = try tool.admin.run(.sweep(namespace: nil))
        #expect(outcome.removed == filled.tiles && outcome.wasDiskFull && outcome.notRemoved == 0)
        #expect(try tool.diskSpace().logBytes == 0)
        try tool.close()
        try filled.expectTheAppWritesAgain()
    }

    @Test func aKeyInvalidationOfTheFullDiskDeletesInBatchesThatFit() throws {
        let filled = try FilledDisk()
        let tool = try filled.tool()
        let tiles = try tool.dataCache(
            "tiles", key: Int.self, policy: NamespacePolicy(expiration: .never, staleWindow: .zero))
        #expect(try tiles.invalidate(Array(0..<filled.tiles)).totalRemoved == filled.tiles)
        #expect(try tiles.count() == 0)
        try tool.close()
        try filled.expectTheAppWritesAgain()
    }

    @Test func whenTheTrashHoldsTheSpaceAPurgeOfTheFullDiskFreesIt() throws {
        // Half the disk went into the trash by an ordinary (undoable) clear; the app then
        // filled the rest.
        let filled = try FilledDisk { app in
            let old = try app.dataCache("old", key: Int.self, policy: NamespacePolicy(expiration: .never))
            for start in stride(from: 0, to: 600, by: 20) {
                try old.set((start..<start + 20).map { (key: $0, value: Data(repeating: 3, count: 2000)) })
            }
            #expect(try app.admin.run(.clear(namespace: "old")).isUndoable)
        }
        let tool = try filled.tool()
        filled.clock.advance(by: .milliseconds(1))
        #expect(try tool.admin.purgeTrash(olderThan: .zero) == 600)
        #expect(try tool.diskSpace().fileFree > 600 * 2000)
        try tool.close()
        try filled.expectTheAppWritesAgain()
    }

    @Test func aTinyReserveStillLetsTheToolsDeleteOneEntryAtATime() throws {
        // With a reserve too small for a batch, batches shrink until they fit.
        let disk = try Tmpfs(kilobytes: 4096)
        let path = disk.file("cache.sqlite")
        var options = StoreOptions()
        options.diskReserve = 48 << 10
        let app = try CacheStore(path: path, options: options)
        let (tiles, _) = try FullDisk.fill(app)
        try app.close()
        options.diskReserve = 48 << 10
        let tool = try CacheStore(path: path, options: options)
        let outcome = try tool.admin.run(.invalidate(.prefix(namespace: "tiles", prefix: "")))
        #expect(outcome.removed + outcome.notRemoved == tiles && outcome.removed > 0 && outcome.wasDiskFull)
        print(
            "full disk with a 48 kB reserve: removed \(outcome.removed) of \(tiles) tiles, \(outcome.notRemoved) left")
        try tool.close()
        try expectIntegrity(path)
    }
}
