import Foundation
import Testing

@testable import CacheCore

/// A namespace ranked by size or creation is read from the expiry index, which holds `size` and
/// (from format 7) `created_at`, never from the table with its values; since format 7 rankings
/// by hits or last access scan the namespace (there is no access index). A format-4 file loses its access index when an app
/// opens it, and a read-only store reads it as it is.
@Suite struct RankingIndexTests {
    /// A store with namespace `n`: 50 entries of different sizes and hit counts.
    private static func fixture() throws -> TestStore {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: String.self)
        for index in 0..<50 {
            try cache.set(String(repeating: "x", count: (index * 37) % 50), for: index)
            fixture.clock.advance(by: .milliseconds(1))
        }
        for index in 0..<50 where index % 3 == 0 { _ = try cache.get(index) }
        try fixture.store.flush()
        return fixture
    }

    /// The detail column of SQLite's plan for the first batch of ranking `sort` in `n`.
    private static func plan(_ fixture: TestStore, _ sort: EntrySort, filter: String = "") throws -> String {
        let connection = try SQLiteConnection(
            path: fixture.path, readOnly: true, create: false, busyTimeout: .seconds(5))
        let id = try #require(try fixture.scalar("SELECT id FROM namespaces WHERE name = 'n'"))
        let filter = try EntryFilter(parsing: filter)
        let ranking = EntryRanking(
            plan: SortPlan(sort), namespaceID: id, namespaceEntries: 50, namespaceName: "n", filter: filter,
            regexes: KeyMatcher(try filter.compiledRegexes()), now: 0, previewBytes: 0)
        let scope = try ranking.scope(scanLimit: nil, on: connection)
        let (sql, values) = ranking.batchQuery(scope, after: nil, count: 10)
        return try connection.rows("EXPLAIN QUERY PLAN " + sql, values) { $0.text(3) }.joined(separator: "; ")
    }

    @Test func aRankingBySizeOrCreationReadsOnlyTheExpiryIndex() throws {
        let fixture = try Self.fixture()
        for field in [EntrySortField.size, .created] {
            for descending in [false, true] {
                let plan = try Self.plan(fixture, EntrySort(field, descending: descending))
                #expect(plan.contains("COVERING INDEX entries_by_expiry"), "\(field): \(plan)")
            }
        }
        let hits = try Self.plan(fixture, EntrySort(.hits))
        #expect(!hits.contains("COVERING"), "no index holds hits: \(hits)")
        let filtered = try Self.plan(fixture, EntrySort(.size), filter: "ttl<1h")
        #expect(filtered.contains("COVERING INDEX entries_by_expiry"), "a filter on the index's columns: \(filtered)")
    }

    @Test func aFilterTheIndexLacksReadsTheRows() throws {
        let fixture = try Self.fixture()
        for filter in ["hits>0", "prefix:1", "regex:^1"] {
            let plan = try Self.plan(fixture, EntrySort(.size), filter: filter)
            #expect(!plan.contains("COVERING"), "\(filter): \(plan)")
        }
    }

    @Test func theOrderIsExactWhicheverWayItIsRead() throws {
        let fixture = try Self.fixture()
        let inspector = try fixture.inspectionStore().inspector
        for field in [EntrySortField.size, .created, .hits] {
            for descending in [false, true] {
                let query = EntryQuery(namespace: "n", sort: EntrySort(field, descending: descending), limit: 7)
                let rows = try inspector.allPages(query).flatMap(\.rows)
                let expected = rows.sorted { lhs, rhs in
                    let (left, right) =
                        switch field {
                        case .size: (Int64(lhs.size), Int64(rhs.size))
                        case .created: (lhs.createdAt, rhs.createdAt)
                        default: (Int64(lhs.hits), Int64(rhs.hits))
                        }
                    return left != right ? (left < right) != descending : (lhs.id < rhs.id) != descending
                }
                #expect(rows.count == 50 && rows.map(\.id) == expected.map(\.id), "\(field) descending: \(descending)")
                #expect(Set(rows.map(\.hits)).count > 1 && Set(rows.map(\.size)).count > 1)
            }
        }
    }

    /// Reads flushed from the file (a plain namespace) and from a hybrid namespace's memory
    /// tier: every page of the last-access and hits orders, both ways and under a filter, is
    /// the brute-force order of what the test read (ties by row id), with exact figures.
    @Test func accessAndHitsOrdersAreExactAfterReadsAreFlushed() throws {
        let fixture = try TestStore()
        for (name, policy) in [("file", NamespacePolicy()), ("memory", NamespacePolicy.hybrid.expiring(.never))] {
            let cache = try fixture.store.cache(name, key: Int.self, value: String.self, policy: policy)
            var accessed: [Int: Int64] = [:]
            var hits: [Int: Int] = [:]
            for key in 0..<60 {
                try cache.set("v\(key)", for: key)
                accessed[key] = fixture.clock.nowMilliseconds()
                fixture.clock.advance(by: .milliseconds(1))
            }
            for round in 0..<4 {
                for key in 0..<60 where (key * 7 + round) % 5 < 2 {
                    for _ in 0...(key % 3) { #expect(try cache.get(key) == "v\(key)") }
                    hits[key, default: 0] += key % 3 + 1
                    accessed[key] = fixture.clock.nowMilliseconds()
                }
                try fixture.store.flush()  // memory hits count as reads when the log takes them
                fixture.clock.advance(by: .seconds(1))
            }
            #expect((cache.counters.snapshot().memoryHits > 0) == (name == "memory"))
            for (field, filter) in [(EntrySortField.lastAccess, ""), (.hits, ""), (.lastAccess, "hits>1")] {
                for descending in [false, true] {
                    let query = EntryQuery(
                        namespace: name, sort: EntrySort(field, descending: descending),
                        filter: try EntryFilter(parsing: filter), limit: 7)
                    let rows = try fixture.store.inspector.allPages(query).flatMap(\.rows)
                    let ids = Dictionary(uniqueKeysWithValues: rows.map { (Int($0.key) ?? -1, $0.id) })
                    let expected = (0..<60).filter { filter.isEmpty || hits[$0, default: 0] > 1 }.sorted { lhs, rhs in
                        let (left, right) =
                            field == .hits
                            ? (Int64(hits[lhs, default: 0]), Int64(hits[rhs, default: 0]))
                            : (accessed[lhs, default: 0], accessed[rhs, default: 0])
                        return left != right
                            ? (left < right) != descending : (ids[lhs, default: 0] < ids[rhs, default: 0]) != descending
                    }
                    #expect(rows.map(\.key) == expected.map(String.init), "\(name), \(field) \(filter) desc \(descending)")
                    for row in rows {
                        let key = Int(row.key) ?? -1
                        #expect(row.hits == hits[key, default: 0] && row.lastAccessAt == (row.hits > 0 ? accessed[key] : nil))
                    }
                }
            }
        }
    }

    @Test func aFormat4FileIsReadAsItIsAndMigratedByAnApp() throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        try olderFormatFile(
            at: path, version: 4,
            """
            PRAGMA journal_mode = WAL;
            INSERT INTO namespaces (id, name, entry_count, total_bytes, created_at, updated_at) VALUES (1, 'n', 2, 10, 1, 1);
            INSERT INTO entries (namespace_id, key, value, size, created_at, accessed_at, hits)
                VALUES (1, 'a', x'226122', 4, 1, 1, 3), (1, 'bb', x'22626222', 6, 2, 2, 1);
            """)
        var readOnly = StoreOptions.inspection()
        readOnly.clock = ManualClock()
        let inspection = try CacheStore(path: path, options: readOnly)
        let byHits = try inspection.inspector.entries(
            EntryQuery(namespace: "n", sort: EntrySort(.hits, descending: true)))
        #expect(byHits.rows.map(\.key) == ["a", "bb"])
        try inspection.close()
        #expect(try rawScalar(path: path, "PRAGMA user_version") == 4, "a read-only store changed nothing")

        let store = try CacheStore(path: path, options: StoreOptions(clock: ManualClock()))
        defer { try? store.close() }
        #expect(try rawScalar(path: path, "PRAGMA user_version") == Int64(Schema.currentVersion))
        let accessIndex = try rawScalar(
            path: path, "SELECT count(*) FROM sqlite_schema WHERE name = 'entries_by_access'")
        #expect(accessIndex == 0, "format 7 has no access index")
        #expect(try store.cache("n", key: String.self, value: String.self).get("bb") == "bb")
    }
}
