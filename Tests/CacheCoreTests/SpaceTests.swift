import Foundation
import Testing

@testable import CacheCore

/// Space given back: a clear, a large removal or a sweep does not grow the file and its WAL,
/// they shrink instead; ``CacheStore/compact(progress:)`` does it on request.
@Suite struct SpaceTests {
    private static let value = String(repeating: "v", count: 200)

    /// A store on `path` with 2,000 entries in "emails", its WAL copied into the file and
    /// truncated (as after a quiet spell), so the sizes compared are the file's own.
    private func filled(_ path: String, clock: ManualClock, expiration: Expiration? = nil) throws -> CacheStore {
        let store = try CacheStore(path: path, options: StoreOptions(clock: clock))
        let cache = try store.cache("emails", key: Int.self, value: String.self)
        try cache.set((0..<2000).map { (key: $0, value: Self.value) }, expiration: expiration)
        try store.flush()
        try rawExecute(path: path, "PRAGMA wal_checkpoint(TRUNCATE)")
        return store
    }

    /// The case: 2,000 entries, 475 kB of file and no WAL; after `clearAll()` the file
    /// stayed 475 kB and the WAL grew to 540 kB.
    @Test func clearingShrinksTheFileAndLeavesNoWAL() throws {
        let folder = TemporaryFolder()
        let store = try filled(folder.file(), clock: ManualClock())
        defer { try? store.close() }
        let before = try store.size()
        #expect(before.walBytes == 0)
        #expect(try store.clear() == 2000)
        let after = try store.size()
        #expect(after.walBytes == 0, "\(after)")
        #expect(after.diskBytes < before.diskBytes / 2, "\(before) → \(after)")
        #expect(after.freeBytes == 0)
    }

    @Test func anExplicitSweepShrinksTheFile() throws {
        let (folder, clock) = (TemporaryFolder(), ManualClock())
        let store = try filled(folder.file(), clock: clock, expiration: .after(.seconds(1)))
        defer { try? store.close() }
        let before = try store.size()
        clock.advance(by: .seconds(1))
        #expect(try store.sweepExpired() == 2000)
        let after = try store.size()
        #expect(after.walBytes == 0 && after.diskBytes < before.diskBytes / 2, "\(before) → \(after)")
    }

    /// Key removals leave free pages (later writes reuse them); `size()` says what a compact
    /// frees, and `compact` frees it, reporting progress.
    @Test func compactGivesBackWhatSizeSaidInSteps() throws {
        let folder = TemporaryFolder()
        let store = try filled(folder.file(), clock: ManualClock())
        defer { try? store.close() }
        let cache = try store.cache("emails", key: Int.self, value: String.self)
        try cache.invalidate(Array(0..<1500))
        try rawExecute(path: folder.file(), "PRAGMA wal_checkpoint(TRUNCATE)")
        let before = try store.size()
        #expect(before.freeBytes > 1500 * 200 / 2, "\(before)")
        #expect(before.compactableBytes == before.freeBytes + before.walBytes)
        var reports: [CompactionProgress] = []
        let outcome = try store.compact {
            reports.append($0)
            return true
        }
        #expect(!outcome.rebuilt && !outcome.isCancelled)
        #expect(reports.last.map { $0.pagesFreed == $0.pagesToFree } == true, "\(reports)")
        #expect(outcome.after.freeBytes == 0 && outcome.after.walBytes == 0)
        #expect(outcome.freedBytes >= before.freeBytes, "\(outcome)")
        #expect(try cache.count() == 500)
    }

    /// A file made before format 6 cannot give pages back in steps: a clear leaves them free
    /// (and no WAL), and `compact` rebuilds it once, after which it shrinks by itself.
    /// Maintenance gives free pages back by itself, a bounded step per pass: key removals
    /// (which free no pages at once) shrink the file after one pass, no `compact()` called.
    @Test func maintenanceGivesFreePagesBack() throws {
        let folder = TemporaryFolder()
        let store = try filled(folder.file(), clock: ManualClock())
        defer { try? store.close() }
        try store.cache("emails", key: Int.self, value: String.self).invalidate(Array(0..<1500))
        try rawExecute(path: folder.file(), "PRAGMA wal_checkpoint(TRUNCATE)")
        let before = try store.size()
        #expect(before.freeBytes > 1500 * 200 / 2, "\(before)")
        let report = try store.runMaintenance()
        let after = try store.size()
        #expect(report.pagesVacuumed > 0 && report.pagesVacuumed <= SQLiteConnection.vacuumStepPages)
        #expect(after.freeBytes == 0 && after.fileBytes < before.fileBytes - before.freeBytes / 2, "\(before) → \(after)")
    }

    @Test func anOlderFileIsRebuiltOnceByCompact() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        try olderFormatFile(at: path, version: 5, "")
        let store = try filled(path, clock: ManualClock())
        defer { try? store.close() }
        #expect(try rawScalar(path: path, "PRAGMA auto_vacuum") == 0)
        let before = try store.size()
        #expect(try store.clear() == 2000)
        let cleared = try store.size()
        #expect(cleared.walBytes == 0 && cleared.diskBytes <= before.diskBytes, "\(before) → \(cleared)")
        #expect(cleared.compactableBytes > before.fileBytes / 2)

        let outcome = try store.compact()
        #expect(outcome.rebuilt)
        #expect(outcome.after.diskBytes < before.diskBytes / 2, "\(outcome)")
        #expect(try rawScalar(path: path, "PRAGMA auto_vacuum") == 2)
        let cache = try store.cache("emails", key: Int.self, value: String.self)
        try cache.set((0..<2000).map { (key: $0, value: Self.value) })
        #expect(try store.clear() == 2000)
        #expect(try store.size().freeBytes == 0, "rebuilt, it gives space back by itself")
    }

    @Test func aReadOnlyStoreRefusesToCompact() throws {
        let fixture = try TestStore()
        try fixture.store.cache("n", key: Int.self, value: Int.self).set(1, for: 1)
        let options = StoreOptions.inspection()
        let reader = try CacheStore(path: fixture.path, options: options)
        #expect(throws: CacheError.readOnly(path: fixture.path)) { try reader.compact() }
    }
}
