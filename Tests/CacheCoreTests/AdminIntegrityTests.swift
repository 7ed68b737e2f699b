import Foundation
import Testing

@testable import CacheCore

/// `Admin.check` and `Admin.repair`: SQLite's verdict, counters and the tag index.
@Suite struct AdminIntegrityTests {
    private func populated() throws -> TestStore {
        let fixture = try TestStore()
        let tiles = try fixture.store.cache("tiles", key: String.self, value: String.self)
        for index in 0..<30 {
            try tiles.set("tile \(index)", for: "t\(index)", tags: index % 3 == 0 ? ["z1", "z2"] : [])
        }
        let colors = try fixture.store.cache("colors", key: Int.self, value: String.self)
        try colors.set("red", for: 4)
        return fixture
    }

    /// The entries' rows, to prove a repair never changes them.
    private func entries(_ fixture: TestStore) throws -> [Int64] {
        try fixture.column("SELECT id + size + created_at + coalesce(expires_at, 0) + hits FROM entries ORDER BY id")
    }

    @Test(arguments: IntegrityCheckDepth.allCases)
    func aHealthyFileIsReportedHealthyEvenReadOnly(depth: IntegrityCheckDepth) throws {
        let fixture = try populated()
        let report = try fixture.inspectionStore().admin.check(depth)
        #expect(report.isHealthy && !report.isRepairable && report.depth == depth)
        #expect(report.sqliteProblems.isEmpty && report.counterMismatches.isEmpty)
        #expect(report.checkedAt == fixture.clock.nowMilliseconds())
    }

    @Test func wrongCountersAreReportedAndRecounted() throws {
        let fixture = try populated()
        try fixture.execute(
            "UPDATE namespaces SET entry_count = 99, total_bytes = total_bytes + 5 WHERE name = 'tiles'")
        let before = try entries(fixture)
        let admin = fixture.store.admin
        let report = try admin.check(.quick)
        let bytes = try #require(try fixture.scalar("SELECT sum(size) FROM entries WHERE key LIKE 't%'"))
        #expect(
            report.counterMismatches == [
                CounterMismatch(
                    namespace: "tiles", recordedEntries: 99, actualEntries: 30, recordedBytes: bytes + 5,
                    actualBytes: bytes)
            ])
        #expect(!report.isHealthy && report.isRepairable)

        #expect(try admin.repair() == IntegrityRepair(countersRewritten: 1, tagRowsAdded: 0, tagRowsRemoved: 0))
        #expect(try admin.check().isHealthy)
        #expect(try entries(fixture) == before)
        #expect(try admin.repair() == IntegrityRepair(countersRewritten: 0, tagRowsAdded: 0, tagRowsRemoved: 0))
    }

    @Test func theTagIndexIsReconciledWithTheEntriesTagLists() throws {
        let fixture = try populated()
        try fixture.execute(
            """
            DELETE FROM entry_tags WHERE tag = 'z2' AND entry_id = (SELECT min(entry_id) FROM entry_tags);
            INSERT INTO entry_tags (tag, entry_id) VALUES ('ghost', 1), ('z1', 99999);
            """)
        let admin = fixture.store.admin
        let report = try admin.check()
        #expect(report.missingTagRows == 1 && report.extraTagRows == 2 && report.isRepairable)
        #expect(try admin.repair() == IntegrityRepair(countersRewritten: 0, tagRowsAdded: 1, tagRowsRemoved: 2))
        #expect(try admin.check().isHealthy)
        #expect(try fixture.scalar("SELECT count(*) FROM entry_tags") == 20)
    }

    @Test func orphansAndMalformedTagListsAreReportedButNotRepairable() throws {
        let fixture = try populated()
        let connection = try SQLiteConnection(
            path: fixture.path, readOnly: false, create: false, busyTimeout: .seconds(5))
        let trigger = try connection.withStatement(
            "SELECT sql FROM sqlite_schema WHERE name = 'entries_tags_update'"
        ) { try $0.firstRow { $0.text(0) } }
        try connection.execute(
            """
            DROP TRIGGER entries_tags_update;
            UPDATE entries SET tags = '["z1", oops' WHERE key = 't0';
            \(try #require(trigger));
            UPDATE entries SET namespace_id = 4242 WHERE key = 't1';
            """)
        let admin = fixture.store.admin
        let report = try admin.check()
        #expect(report.malformedTagLists == 1 && report.orphanedEntries == 1)
        #expect(report.extraTagRows == 2, "t0's rows are no longer accounted for by a valid list")
        #expect(report.counterMismatches.map(\.namespace) == ["tiles"], "t1 left the namespace")

        let repair = try admin.repair()
        #expect(repair.countersRewritten == 1 && repair.tagRowsRemoved == 2)
        let after = try admin.check()
        #expect(after.malformedTagLists == 1 && after.orphanedEntries == 1)
        #expect(!after.isHealthy && !after.isRepairable)
    }

    @Test func sqliteFindsAnIndexThatNoLongerMatchesItsTable() throws {
        let fixture = try populated()
        try fixture.store.close()
        try rawExecute(
            path: fixture.path,
            """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET sql = 'CREATE INDEX entries_by_expiry ON entries (namespace_id, size)'
            WHERE name = 'entries_by_expiry';
            """)
        let store = try fixture.inspectionStore()
        #expect(try store.admin.check(.quick).sqliteProblems.isEmpty, "a quick check does not compare indexes")
        let full = try store.admin.check(.full)
        #expect(!full.sqliteProblems.isEmpty && !full.isHealthy)
        #expect(full.sqliteProblems.allSatisfy { !$0.contains("\n") })
    }

    @Test func aReadOnlyStoreRefusesToRepair() throws {
        let fixture = try populated()
        #expect(throws: CacheError.readOnly(path: fixture.path)) { try fixture.inspectionStore().admin.repair() }
    }
}
