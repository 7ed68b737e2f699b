import Foundation
import Testing

@testable import CacheCore

/// Opening a format-3 file migrates it to format 4: a short schema step, then format 3's trash
/// moves into partitions in batches of 1,000 rows. Killed at any moment, the file is valid
/// and holds every entry and every trash row (moved or still waiting), a read-only store reads
/// it as it is, and the next open resumes.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct MigrationTests {
    static let entries = TestScale.count(ci: 40_000, full: 400_000)
    static let trashRows = TestScale.count(ci: 20_000, full: 200_000)

    /// A format-3 file: namespace `tiles` (id 1) with `entries` entries, and two actions whose
    /// trash holds `trashRows` more: #7 cleared `tiles` (keys `gone-i`, three quarters of
    /// them), #8 took keys `old-i` out of `maps` (id 2). Trash values are `value-i` padded to
    /// 100 bytes, so a restored value can be checked byte for byte.
    static func format3File(at path: String, entries: Int = entries, trashRows: Int = trashRows) throws {
        let cleared = trashRows * 3 / 4
        try olderFormatFile(
            at: path, version: 3,
            """
            PRAGMA journal_mode = WAL;
            INSERT INTO namespaces (id, name, created_at, updated_at) VALUES (1, 'tiles', 1, 1), (2, 'maps', 1, 1);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(entries))
            INSERT INTO entries (namespace_id, key, value, size, created_at, expires_at, accessed_at)
            SELECT 1, 'k' || i, randomblob(100), 100 + length('k' || i), 1, 9999999999999, 1 FROM n WHERE i <= \(entries);
            INSERT INTO audit (id, at, user, host, pid, program, target, entries, bytes) VALUES
                (7, 2, 'ops', 'box', 1, 'cachedeck', '{"clear":{"namespace":"tiles"}}', \(cleared), 0),
                (8, 3, 'ops', 'box', 1, 'cachedeck', '{"invalidate":{"_0":{"prefix":{"namespace":"maps","prefix":"old-"}}}}',
                 \(trashRows - cleared), 0);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(trashRows))
            INSERT INTO trash (audit_id, entry_id, namespace_id, key, value, size, created_at, accessed_at, hits, version)
            SELECT CASE WHEN i <= \(cleared) THEN 7 ELSE 8 END, 100000000 + i, CASE WHEN i <= \(cleared) THEN 1 ELSE 2 END,
                   CASE WHEN i <= \(cleared) THEN 'gone-' ELSE 'old-' END || i,
                   CAST(printf('%-100s', 'value-' || i) AS BLOB), 100, 1, 1, 0, ''
            FROM n WHERE i <= \(trashRows);
            PRAGMA wal_checkpoint(TRUNCATE);
            """)
    }

    /// Where a format-3 file's migration is: trash rows moved into partitions, rows still
    /// waiting in `v3_trash`, and whether the partitions' counters match their entries.
    struct Progress: Equatable {
        let version: Int64
        let moved: Int64
        let waiting: Int64
        let countersExact: Bool

        init(_ path: String) throws {
            version = try rawScalar(path: path, "PRAGMA user_version") ?? 0
            guard version == Schema.currentVersion else {
                moved = 0
                waiting = try rawScalar(path: path, "SELECT count(*) FROM trash") ?? 0
                countersExact = true
                return
            }
            moved =
                try rawScalar(path: path, "SELECT count(*) FROM entries e JOIN partitions p ON p.id = e.namespace_id")
                ?? 0
            let pending = try rawScalar(
                path: path, "SELECT count(*) FROM sqlite_schema WHERE name IN ('v3_trash', 'v3_trash_names')")
            waiting = pending == 2 ? try rawScalar(path: path, "SELECT count(*) FROM v3_trash") ?? 0 : 0
            countersExact =
                try rawScalar(
                    path: path,
                    """
                    SELECT count(*) FROM partitions p
                    WHERE p.entry_count != (SELECT count(*) FROM entries WHERE namespace_id = p.id)
                       OR p.total_bytes != (SELECT coalesce(sum(size), 0) FROM entries WHERE namespace_id = p.id)
                    """) == 0
        }

        var isHalfway: Bool { version == Schema.currentVersion && waiting > 0 }
    }

    /// Every trash row restored by undoing both actions, values byte for byte; every entry read.
    static func expectEverythingRestorable(_ path: String, round: Int) throws {
        let store = try CacheStore(path: path, options: StoreOptions(onDamagedFile: .fail))
        defer { try? store.close() }
        #expect(try Progress(path).waiting == 0, "the open finished the job")
        #expect(try rawScalar(path: path, "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'v3_trash%'") == 0)
        let tiles = try store.dataCache("tiles", key: String.self)
        let maps = try store.dataCache("maps", key: String.self)
        #expect(try tiles.count() == entries && tiles.get("k\(round + 1)")?.count == 100)
        let cleared = trashRows * 3 / 4
        #expect(try store.admin.restore(7) == cleared, "round \(round)")
        #expect(try store.admin.restore(8) == trashRows - cleared, "round \(round)")
        #expect(try tiles.count() == entries + cleared && maps.count() == trashRows - cleared)
        for index in [1, cleared / 2, cleared] { #expect(try tiles.get("gone-\(index)") == trashValue(index)) }
        #expect(try maps.get("old-\(trashRows)") == trashValue(trashRows))
    }

    /// The value `format3File` gives trash row `index`.
    static func trashValue(_ index: Int) -> Data {
        let text = Data("value-\(index)".utf8)
        return text + Data(repeating: UInt8(ascii: " "), count: 100 - text.count)
    }

    @Test func anAppKilledWhileItMigratesLeavesAValidFileAndTheNextOpenResumes() throws {
        let folder = TemporaryFolder()
        let original = folder.file("v3.sqlite")
        try Self.format3File(at: original)
        let (timed, whole) = try timedOpen(of: original, in: folder)
        #expect(try Progress(timed).waiting == 0 && Progress(timed).moved == Int64(Self.trashRows))

        let rounds = TestScale.count(ci: 8, full: 40)
        var halfway = 0
        var untouched = 0
        for round in 0..<rounds {
            let path = try killedOpen(of: original, in: folder, round: round, within: whole)
            let progress = try Progress(path)
            #expect(progress.moved + progress.waiting == Int64(Self.trashRows), "round \(round): \(progress)")
            #expect(progress.countersExact, "round \(round)")
            #expect(
                try rawScalar(path: path, "SELECT count(*) FROM entries WHERE key LIKE 'k%'") == Int64(Self.entries))
            if progress.version == 3 { untouched += 1 }
            if progress.isHalfway {
                halfway += 1
                try Self.expectReadOnlyView(path, waiting: progress.waiting)
            }
            try Self.expectEverythingRestorable(path, round: round)
        }
        print(
            "migration of \(Self.entries) entries and \(Self.trashRows) trash rows: one open takes \(whole); "
                + "\(rounds) opens killed at random moments: \(untouched) before the schema step, \(halfway) between "
                + "or inside batches, the rest after; every file valid, every row kept and restorable")
    }

    /// A read-only store on a half-migrated file: entries read, both actions still undoable,
    /// their keys named.
    static func expectReadOnlyView(_ path: String, waiting: Int64) throws {
        let reader = try CacheStore(path: path, options: .inspection())
        defer { try? reader.close() }
        #expect(try reader.dataCache("tiles", key: String.self).count() == entries)
        let log = try reader.admin.auditLog()
        #expect(log.map(\.id) == [8, 7] && log.allSatisfy(\.canUndo), "\(waiting) rows still waiting")
        #expect(log.allSatisfy { !$0.sampleKeys.isEmpty })
    }

    @Test func aMigrationCutOffBetweenBatchesReadsWholeAndResumesOnTheNextOpen() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        try Self.format3File(at: path, entries: 2_000, trashRows: 5_000)
        // The schema step and two batches, as an open killed after them leaves the file.
        let connection = try SQLiteConnection(path: path, readOnly: false, create: false, busyTimeout: .seconds(5))
        try StoreFile.migrate(connection, path: path)
        for _ in 0..<2 { #expect(try Format3Trash.moveBatch(connection, limit: 1000, now: 5) == 1000) }
        let halfway = try Progress(path)
        #expect(
            halfway.version == Schema.currentVersion && halfway.moved == 2000 && halfway.waiting == 3000
                && halfway.countersExact)

        // Between batches another process writes and reads as usual; a read-only store
        // reads the file as it is.
        try rawExecute(path: path, "UPDATE entries SET hits = hits + 1 WHERE key = 'k1'")
        let reader = try CacheStore(path: path, options: .inspection())
        let log = try reader.admin.auditLog()
        #expect(log.map(\.id) == [8, 7] && log.allSatisfy(\.canUndo))
        #expect(log.first { $0.id == 8 }?.sampleKeys.first?.hasPrefix("maps/old-") == true, "\(log)")
        #expect(try reader.dataCache("tiles", key: String.self).count() == 2_000)
        try reader.close()

        // The next read-write open moves the rest and drops the marker.
        let store = try CacheStore(path: path, options: StoreOptions(onDamagedFile: .fail))
        #expect(try rawScalar(path: path, "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'v3_trash%'") == 0)
        #expect(try rawScalar(path: path, "SELECT count(*) FROM partitions") == 2, "one partition per action")
        #expect(try store.admin.restore(7) == 3_750 && store.admin.restore(8) == 1_250)
        let tiles = try store.dataCache("tiles", key: String.self)
        #expect(try tiles.count() == 5_750)
        #expect(try tiles.get("gone-3750") == Self.trashValue(3750))
        try store.close()
    }

    @Test func appsOpeningAFormat3FileTogetherShareTheBatchesAndMoveEachRowOnce() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        try Self.format3File(at: path)
        let apps = try (0..<3).map { try HelperProcess(["open", path, "\($0)", "--barrier"]) }
        for app in apps { try app.waitForLine("ready") }
        for app in apps { app.release() }
        for app in apps {
            let exit = try app.waitForExit()
            #expect(exit.succeeded, "\(exit.stderr)")
        }
        let progress = try Progress(path)
        #expect(progress.waiting == 0 && progress.moved == Int64(Self.trashRows) && progress.countersExact)
        try Self.expectEverythingRestorable(path, round: 0)
        #expect(try rawScalar(path: path, "SELECT count(*) FROM entries WHERE key LIKE 'open-%'") == 3)
    }

    @Test func aNewFileAndAFormat3FileWithAnEmptyTrashKeepNoMigrationTables() throws {
        let folder = TemporaryFolder()
        let fresh = folder.file("new.sqlite")
        try CacheStore(path: fresh).close()
        let empty = folder.file("empty.sqlite")
        try Self.format3File(at: empty, entries: 10, trashRows: 0)
        try CacheStore(path: empty).close()
        for path in [fresh, empty] {
            #expect(try rawScalar(path: path, "PRAGMA user_version") == Int64(Schema.currentVersion))
            #expect(try rawScalar(path: path, "SELECT count(*) FROM sqlite_schema WHERE name LIKE '%trash%'") == 1)
        }
    }

    @Test func aReadOnlyOpenOfAFormat3FileSaysInOneLineThatAnAppMustOpenItOnce() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        try Self.format3File(at: path, entries: 10, trashRows: 10)
        let before = fileBytes(path)
        #expect(
            throws: CacheError.cannotOpen(
                path: path, reason: "format 3 must be upgraded to \(Schema.currentVersion); open it read-write once")
        ) {
            try CacheStore(path: path, options: .inspection())
        }
        #expect(fileBytes(path) == before)
    }
}

/// Copies `original` and opens the copy with the helper left alone: the copy and how long the
/// open took (the kills of ``killedOpen(of:in:round:within:)`` land anywhere inside that).
func timedOpen(of original: String, in folder: TemporaryFolder) throws -> (path: String, took: Duration) {
    let timed = folder.file("timed.sqlite")
    try FileManager.default.copyItem(atPath: original, toPath: timed)
    let probe = try HelperProcess(["open", timed, "timed", "--barrier"])
    try probe.waitForLine("ready")
    let started = ContinuousClock.now
    probe.release()
    #expect(try probe.waitForExit().succeeded)
    return (timed, ContinuousClock.now - started)
}

/// Copies `original`, opens the copy with the helper and kills it at a random moment within
/// `within`; checks the file's integrity and returns its path.
func killedOpen(of original: String, in folder: TemporaryFolder, round: Int, within: Duration) throws -> String {
    let path = folder.file("round\(round).sqlite")
    try FileManager.default.copyItem(atPath: original, toPath: path)
    let helper = try HelperProcess(["open", path, "\(round)", "--barrier"])
    try helper.waitForLine("ready")
    helper.release()
    usleep(UInt32.random(in: 0...UInt32(max(1, within.milliseconds * 1000))))
    helper.kill()
    _ = try helper.waitForExit()
    try expectIntegrity(path)
    return path
}
