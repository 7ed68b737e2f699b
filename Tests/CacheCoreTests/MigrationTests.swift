import Foundation
import Testing

@testable import CacheCore

/// Opening a format-3 file migrates it to format 4 in one transaction: killed at any moment,
/// the file is either still format 3 or already format 4, valid, with every entry and every
/// trash row; the next open finishes the job.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct MigrationTests {
    static let entries = 40_000
    static let trashRows = 4_000

    /// A format-3 file: namespace `tiles` with `entries` entries, and an action whose trash
    /// holds `trashRows` more.
    static func format3File(at path: String) throws {
        try rawExecute(path: path, Schema.migrations.prefix(3).joined(separator: "\n"))
        try rawExecute(
            path: path,
            """
            PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = 3; PRAGMA journal_mode = WAL;
            INSERT INTO namespaces (id, name, created_at, updated_at) VALUES (1, 'tiles', 1, 1);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(entries))
            INSERT INTO entries (namespace_id, key, value, size, created_at, expires_at, accessed_at)
            SELECT 1, 'k' || i, randomblob(100), 100 + length('k' || i), 1, 9999999999999, 1 FROM n;
            INSERT INTO audit (id, at, user, host, pid, program, target, entries, bytes)
                VALUES (7, 2, 'ops', 'box', 1, 'cachedeck', '{"clear":{"namespace":"tiles"}}', \(trashRows), 0);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(trashRows))
            INSERT INTO trash (audit_id, entry_id, namespace_id, key, value, size, created_at, accessed_at, hits, version)
            SELECT 7, 100000 + i, 1, 'gone' || i, randomblob(100), 100, 1, 1, 0, '' FROM n;
            PRAGMA wal_checkpoint(TRUNCATE);
            """)
    }

    @Test func anAppKilledWhileItMigratesLeavesEitherFormatWholeAndTheNextOpenFinishes() throws {
        let folder = TemporaryFolder()
        let original = folder.file("v3.sqlite")
        try Self.format3File(at: original)
        let rounds = TestScale.count(ci: 6, full: 40)
        var migrated = 0
        for round in 0..<rounds {
            let path = folder.file("round\(round).sqlite")
            try FileManager.default.copyItem(atPath: original, toPath: path)
            let helper = try HelperProcess(["open", path, "\(round)", "--barrier"])
            try helper.waitForLine("ready")
            helper.release()
            usleep(UInt32.random(in: 0..<400_000))
            helper.kill()
            _ = try helper.waitForExit()
            try expectIntegrity(path)
            let version = try rawScalar(path: path, "PRAGMA user_version")
            if version == 4 {
                migrated += 1
                #expect(try rawScalar(path: path, "SELECT entry_count FROM namespaces WHERE name = 'tiles'") == Int64(Self.entries))
                #expect(try rawScalar(path: path, "SELECT sum(entry_count) FROM partitions") == Int64(Self.trashRows))
            } else {
                #expect(version == 3, "round \(round)")
                #expect(try rawScalar(path: path, "SELECT count(*) FROM trash") == Int64(Self.trashRows))
            }
            #expect(try rawScalar(path: path, "SELECT count(*) FROM entries WHERE key LIKE 'k%'") == Int64(Self.entries))

            let store = try CacheStore(path: path, options: StoreOptions(onDamagedFile: .fail))
            let tiles = try store.dataCache("tiles", key: String.self)
            #expect(try tiles.count() == Self.entries && tiles.get("k\(round + 1)")?.count == 100)
            let record = try #require(try store.admin.auditLog().first { $0.id == 7 })
            #expect(try store.admin.restore(record.id) == Self.trashRows, "round \(round)")
            #expect(try tiles.count() == Self.entries + Self.trashRows)
            try store.close()
        }
        print("migration: \(rounds) opens killed at random moments, \(migrated) had finished, every file valid and whole")
    }
}
