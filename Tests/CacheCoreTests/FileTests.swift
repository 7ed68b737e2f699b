import Foundation
import Testing

@testable import CacheCore

@Suite struct FileTests {
    @Test func aNewFileIsCreatedWithMode0600AndTheCurrentFormat() throws {
        let fixture = try TestStore()
        let attributes = try FileManager.default.attributesOfItem(atPath: fixture.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try fixture.scalar("PRAGMA user_version") == Int64(Schema.currentVersion))
        #expect(try fixture.scalar("PRAGMA application_id") == Schema.applicationID)
        #expect(
            try rawScalar(path: fixture.path, "SELECT count(*) FROM pragma_journal_mode WHERE journal_mode = 'wal'")
                == 1)
    }

    @Test func aVersion1FileIsMigratedForwardKeepingItsEntries() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        try rawExecute(
            path: path,
            """
            PRAGMA application_id = \(Schema.applicationID);
            \(Schema.version1)
            INSERT INTO namespaces (name, policy, created_at, updated_at) VALUES ('colors', '{}', 0, 0);
            INSERT INTO entries (namespace_id, key, value, size, created_at, accessed_at)
            VALUES (1, '10', CAST('"red"' AS BLOB), 7, 0, 0);
            PRAGMA user_version = 1;
            """)
        let store = try CacheStore(path: path, options: StoreOptions(defaultPolicy: .default.expiring(.never)))
        #expect(try store.cache("colors", key: Int.self, value: String.self).get(10) == "red")
        #expect(try rawScalar(path: path, "PRAGMA user_version") == Int64(Schema.currentVersion))
        #expect(try rawScalar(path: path, "SELECT count(*) FROM invalidations") == 0)
    }

    @Test func namedStoresLiveInTheUserCacheFolder() {
        #expect(
            CacheStore.defaultPath(named: "lego", environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"])
                == "/x/cache/cachedeck/lego.sqlite")
        #expect(
            CacheStore.defaultPath(named: "lego", environment: ["HOME": "/home/u"])
                == "/home/u/.cache/cachedeck/lego.sqlite")
        #expect(
            CacheStore.defaultPath(named: "lego", environment: ["XDG_CACHE_HOME": "", "HOME": "/home/u"])
                == "/home/u/.cache/cachedeck/lego.sqlite")
    }

    @Test func aNewerFormatIsRefusedAndLeftUntouched() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        try CacheStore(path: path).close()
        try rawExecute(path: path, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA user_version = 99")
        let before = fileBytes(path)
        #expect(throws: CacheError.newerFormat(path: path, found: 99, supported: Schema.currentVersion)) {
            try CacheStore(path: path)
        }
        #expect(fileBytes(path) == before)
        #expect("\(CacheError.newerFormat(path: path, found: 99, supported: 1))".contains("upgrade CacheDeck"))
    }

    @Test func aDamagedFileIsQuarantinedAndAFreshStoreStarts() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        let garbage = Data(repeating: 0x41, count: 8192)
        #expect(FileManager.default.createFile(atPath: path, contents: garbage))
        let store = try CacheStore(path: path)
        let report = try #require(store.quarantinedFile)
        #expect(report.originalPath == path)
        #expect(report.movedTo.hasPrefix(path + ".corrupt-"))
        #expect(fileBytes(report.movedTo) == garbage, "the damaged file is kept, byte for byte")
        let cache = try store.cache("n", key: Int.self, value: Int.self)
        try cache.set(1, for: 1)
        #expect(try cache.get(1) == 1)
    }

    @Test func inspectionRefusesADamagedFileWithoutMovingIt() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        let garbage = Data("definitely not sqlite, just some text that is long enough".utf8)
        #expect(FileManager.default.createFile(atPath: path, contents: garbage))
        for options in [StoreOptions.inspection(), .inspection(writable: true), StoreOptions(onDamagedFile: .fail)] {
            #expect(throws: CacheError.notACacheFile(path: path, reason: "it is not a SQLite database")) {
                try CacheStore(path: path, options: options)
            }
        }
        #expect(fileBytes(path) == garbage)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["cache.sqlite"])
    }

    @Test func anotherApplicationsDatabaseIsRefusedNotQuarantined() throws {
        let folder = TemporaryFolder()
        let path = folder.file("cache.db")
        try rawExecute(path: path, "CREATE TABLE Cache (rowid INTEGER PRIMARY KEY, key BLOB, value BLOB)")
        let before = fileBytes(path)
        #expect(throws: CacheError.notACacheFile(path: path, reason: "it holds another application's tables (Cache)")) {
            try CacheStore(path: path)
        }
        #expect(fileBytes(path) == before)
    }

    @Test func missingFilesDirectoriesAndMissingFoldersGiveClearReasons() throws {
        let folder = TemporaryFolder()
        let missing = folder.file("missing.sqlite")
        #expect(throws: CacheError.cannotOpen(path: missing, reason: "no such file")) {
            try CacheStore(path: missing, options: .inspection())
        }
        #expect(!FileManager.default.fileExists(atPath: missing), "inspection never creates a file")
        #expect(throws: CacheError.cannotOpen(path: folder.path, reason: "it is a directory")) {
            try CacheStore(path: folder.path)
        }
        let nested = folder.path + "/no/such/cache.sqlite"
        #expect(throws: CacheError.cannotOpen(path: nested, reason: "the folder \(folder.path)/no/such does not exist"))
        {
            try CacheStore(path: nested)
        }
    }

    @Test func aReadOnlyStoreReadsButRefusesEveryWrite() throws {
        let fixture = try TestStore()
        let writer = try fixture.store.cache("n", key: String.self, value: Int.self)
        try writer.set(1, for: "a")
        var options = StoreOptions.inspection()
        options.clock = fixture.clock
        let reader = try CacheStore(path: fixture.path, options: options)
        #expect(reader.isReadOnly)
        let cache = try reader.cache("n", key: String.self, value: Int.self)
        #expect(try cache.get("a") == 1)
        #expect(try cache.count() == 1)
        #expect(throws: CacheError.readOnly(path: fixture.path)) { try cache.set(2, for: "b") }
        #expect(throws: CacheError.readOnly(path: fixture.path)) { try cache.remove("a") }
        #expect(throws: CacheError.readOnly(path: fixture.path)) { try cache.removeAll() }
        #expect(throws: CacheError.readOnly(path: fixture.path)) { try reader.sweepExpired() }
        #expect(try reader.cache("unknown", key: String.self, value: Int.self).get("a") == nil)
        #expect(try fixture.scalar("SELECT count(*) FROM namespaces") == 1, "a read-only open registers nothing")
    }

    @Test func inspectingReadsLeaveTheFileUnchanged() throws {
        let fixture = try TestStore()
        try fixture.store.cache("n", key: String.self, value: Int.self).set(1, for: "a")
        try fixture.store.close()
        try rawExecute(path: fixture.path, "PRAGMA wal_checkpoint(TRUNCATE)")
        let before = fileBytes(fixture.path)
        let reader = try CacheStore(path: fixture.path, options: .inspection())
        for _ in 0..<3 { _ = try reader.cache("n", key: String.self, value: Int.self).get("a") }
        try reader.close()
        #expect(fileBytes(fixture.path) == before)
        #expect(try rawScalar(path: fixture.path, "SELECT hits FROM entries") == 0)
    }

    @Test func aClosedStoreRefusesCalls() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: String.self, value: Int.self)
        try fixture.store.close()
        #expect(throws: CacheError.cannotOpen(path: fixture.path, reason: "the store was closed")) {
            try cache.get("a")
        }
    }

    @Test func aFullDiskFailsWritesClearlyWhileReadsAndStoredEntriesSurvive() throws {
        let fixture = try TestStore()
        let blobs = try fixture.store.dataCache("blobs", key: Int.self)
        let hot = try fixture.store.cache("hot", key: Int.self, value: String.self, policy: .hybrid)
        for index in 0..<20 { try blobs.set(Data(repeating: UInt8(index), count: 3000), for: index) }
        try hot.set("kept", for: 1)
        // The file may not grow past a few pages more (SQLITE_FULL, as on a full disk).
        let pages = try #require(try fixture.scalar("PRAGMA page_count"))
        try fixture.store.database.write { try $0.execute("PRAGMA max_page_count = \(pages + 4)") }
        var failure: (any Error)?
        for index in 20..<200 where failure == nil {
            do { try blobs.set(Data(count: 16 * 1024), for: index) } catch { failure = error }
        }
        let error = try #require(failure, "the size limit was never reached")
        #expect(error as? CacheError == .diskFull(path: fixture.path))
        #expect("\(error)" == "disk full while writing \(fixture.path); nothing stored was lost")
        #expect(throws: CacheError.diskFull(path: fixture.path)) {
            try hot.set(String(repeating: "x", count: 64 * 1024), for: 1)
        }
        #expect(try hot.get(1) == "kept", "the failed set did not reach the memory tier")
        for index in 0..<20 { #expect(try blobs.get(index) == Data(repeating: UInt8(index), count: 3000)) }

        // Removing frees room; the console's invalidation works on the full file (moving
        // entries into the trash needs no room), emptying the trash frees it, and writes resume.
        #expect(try blobs.remove(0))
        let cleared = try fixture.store.admin.run(.invalidate(.keys(namespace: "blobs", keys: ["1", "2"])))
        #expect(cleared.removed == 2 && cleared.isUndoable)
        #expect(try blobs.get(1) == nil && blobs.get(2) == nil)
        fixture.clock.advance(by: .milliseconds(1))
        #expect(try fixture.store.admin.purgeTrash(olderThan: .zero) == 2)
        try blobs.set(Data(count: 100), for: 0)
        try fixture.store.close()
        let reopened = try fixture.reopen()
        let again = try reopened.dataCache("blobs", key: Int.self)
        #expect(try again.get(0) == Data(count: 100))
        for index in 3..<20 { #expect(try again.get(index) == Data(repeating: UInt8(index), count: 3000)) }
        #expect(try reopened.cache("hot", key: Int.self, value: String.self, policy: .hybrid).get(1) == "kept")
        try reopened.close()
    }

    @Test func errorsReadAsOneLine() {
        let errors: [CacheError] = [
            .cannotOpen(path: "/p", reason: "no such file"), .notACacheFile(path: "/p", reason: "corrupt"),
            .newerFormat(path: "/p", found: 2, supported: 1), .readOnly(path: "/p"),
            .encodingFailed(namespace: "n", key: "k", reason: "r"),
            .busy(path: "/p"), .diskFull(path: "/p"), .sqlite(code: 1, message: "m"),
        ]
        for error in errors {
            #expect(!"\(error)".contains("\n"))
            #expect("\(error)".count > 10)
        }
    }
}
