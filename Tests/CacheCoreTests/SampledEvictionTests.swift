import Foundation
import Testing

@testable import CacheCore

/// Least-recently-used eviction in namespaces larger than ``SampledEviction/exactUpTo``, where
/// it samples instead of reading an access index (format 8 has none).
@Suite struct SampledEvictionTests {
    /// More entries than the exact order is used for.
    static let size = SampledEviction.exactUpTo + 904

    /// A namespace of `size` entries capped at `size`; keys `0..<size/2` read once after all
    /// were written, so the other half is the least recently used.
    private static func fullNamespace(_ fixture: TestStore, policy: NamespacePolicy? = nil) throws
        -> Cache<Int, Int>
    {
        let cache = try fixture.store.cache(
            "big", key: Int.self, value: Int.self, policy: policy ?? NamespacePolicy(maxEntries: size))
        try cache.set((0..<size).map { (key: $0, value: $0) })
        fixture.clock.advance(by: .seconds(1))
        for key in 0..<size / 2 { _ = try cache.get(key) }
        try fixture.store.flush()
        fixture.clock.advance(by: .seconds(1))
        return cache
    }

    private static func present(_ cache: Cache<Int, Int>, _ keys: Range<Int>) throws -> Int {
        try keys.reduce(0) { $0 + (try cache.get($1) == nil ? 0 : 1) }
    }

    @Test func itEvictsTheUnreadAndKeepsWhatWasJustWritten() throws {
        let fixture = try TestStore()
        let cache = try Self.fullNamespace(fixture)
        let added = 600
        try cache.set((Self.size..<Self.size + added).map { (key: $0, value: $0) })
        #expect(try cache.count() == Self.size)
        #expect(try Self.present(cache, Self.size..<Self.size + added) == added, "a just-written entry stays")
        let readKept = try Self.present(cache, 0..<Self.size / 2)
        #expect(readKept >= Self.size / 2 - 5, "victims come from the unread half: \(Self.size / 2 - readKept) read ones went")
        for key in Self.size..<Self.size + 50 {
            try cache.set(key, for: key + 10 * Self.size)
            fixture.clock.advance(by: .milliseconds(1))
        }
        #expect(try cache.count() == Self.size, "one by one, each set evicts one")
    }

    /// Eviction leaves gaps in the ids; a draw that took the first entry after a random id
    /// would favour entries after wide gaps (here the sparse old ones, drawn about 2 in 3 times)
    /// over the dense newest ones, which LRU most needs to see.
    @Test func aDrawIsUniformOverEntriesHoweverSparseTheIds() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: Int.self, value: Int.self)
        try cache.set((0..<1000).map { (key: $0, value: $0) })
        for key in 0..<1000 where key % 20 != 0 { _ = try cache.remove(key) }
        let lastOld = try #require(try fixture.scalar("SELECT max(id) FROM entries"))
        try cache.set((1000..<1500).map { (key: $0, value: $0) })
        let draws = 2000
        let newDraws = try fixture.store.database.read { connection in
            let ids = try #require(try connection.entryIDRange())
            return try (0..<draws).reduce(0) { count, _ in
                let drawn = try #require(try connection.randomEntry(in: ids, namespaceID: nil, tries: SampledEviction.triesPerDraw))
                return count + (drawn.id > lastOld ? 1 : 0)
            }
        }
        let share = Double(newDraws) / Double(draws)
        #expect(share > 0.85 && share < 0.97, "500 of the 550 entries are the new ones; they got \(share) of the draws")
    }

    @Test func aPooledCandidateIsReadAgainBeforeItIsEvicted() {
        typealias Candidate = SampledEviction.Candidate
        let read = Candidate(id: 1, namespaceID: 1, size: 1, accessedAt: 1)
        let gone = Candidate(id: 2, namespaceID: 1, size: 1, accessedAt: 2)
        let unread = Candidate(id: 3, namespaceID: 1, size: 1, accessedAt: 3)
        let readSince = Candidate(id: 1, namespaceID: 1, size: 1, accessedAt: 40)
        var sampler = SampledEviction(fresh: 50, pool: [read, gone, unread])
        let current = { (candidate: Candidate) -> Candidate? in
            switch candidate.id {
            case 1: readSince
            case 2: nil
            default: candidate
            }
        }
        #expect(sampler.next(draw: { nil }, current: current) == unread, "read since pooled, or gone: passed over")
        #expect(sampler.pool == [readSince], "the read one is pooled again with its new time")
        #expect(sampler.next(draw: { nil }, current: current) == readSince)
        #expect(sampler.next(draw: { nil }, current: current) == nil)
    }

    @Test func itRespectsAByteLimit() throws {
        let fixture = try TestStore()
        let cache = try fixture.store.dataCache(
            "bytes", key: Int.self, policy: NamespacePolicy(maxBytes: 100 * Self.size))
        try cache.set((0..<Self.size).map { (key: $0, value: Data(count: 90)) })
        let limit = try #require(try fixture.scalar("SELECT total_bytes FROM namespaces WHERE name = 'bytes'"))
        #expect(limit <= 100 * Int64(Self.size))
        fixture.clock.advance(by: .seconds(1))
        try cache.set((Self.size..<Self.size + 500).map { (key: $0, value: Data(count: 300)) })
        let bytes = try #require(try fixture.scalar("SELECT total_bytes FROM namespaces WHERE name = 'bytes'"))
        #expect(bytes <= 100 * Int64(Self.size) && bytes > 100 * Int64(Self.size) - 400)
        #expect(try fixture.scalar("SELECT count(*) FROM entries WHERE size > 300") == 500)
    }

    @Test func keepNewestStillDropsTheOldestWritten() throws {
        let fixture = try TestStore()
        let cache = try Self.fullNamespace(fixture, policy: .default.keepingNewest(Self.size))
        try cache.set((Self.size..<Self.size + 100).map { (key: $0, value: $0) })
        #expect(try Self.present(cache, 0..<100) == 0, "reads do not protect the oldest written")
        #expect(try Self.present(cache, 100..<Self.size + 100) == Self.size)
    }

    @Test func aStoreWideLimitSamplesAcrossNamespaces() throws {
        let fixture = try TestStore { $0.maxEntries = Self.size }
        let read = try fixture.store.cache("read", key: Int.self, value: Int.self)
        let unread = try fixture.store.cache("unread", key: Int.self, value: Int.self)
        try read.set((0..<Self.size / 2).map { (key: $0, value: $0) })
        try unread.set((0..<Self.size / 2).map { (key: $0, value: $0) })
        fixture.clock.advance(by: .seconds(1))
        for key in 0..<Self.size / 2 { _ = try read.get(key) }
        try fixture.store.flush()
        fixture.clock.advance(by: .seconds(1))
        let fresh = try fixture.store.cache("fresh", key: Int.self, value: Int.self)
        try fresh.set((0..<300).map { (key: $0, value: $0) })
        #expect(try read.count() + unread.count() + fresh.count() == Self.size)
        #expect(try fresh.count() == 300)
        #expect(try read.count() >= Self.size / 2 - 5, "the unread namespace pays")
    }
}

/// Format 8: the access index is dropped by the migration, inside its transaction, so an app
/// killed while it migrates leaves a file of the older format with the index or a format-8
/// file without. Formats 5, 6 and 7 migrate the same way (7 keeps its sort values).
@Suite struct AccessIndexMigrationTests {
    static let entries = 30_000

    /// A file of format `version` with namespace `n`: `entries` entries `k0`, `k1`, … (hits
    /// `n % 7`); from format 7, every third entry has sort value `n`.
    private static func olderFile(at path: String, version: Int) throws {
        let sortValues = version >= Schema.sortValuesVersion
        try olderFormatFile(
            at: path, version: version,
            """
            PRAGMA journal_mode = WAL;
            INSERT INTO namespaces (id, name, created_at, updated_at) VALUES (1, 'n', 1, 1);
            WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n < \(entries - 1))
            INSERT INTO entries (namespace_id, key, value, size, created_at, accessed_at, hits\(sortValues ? ", sort_value" : ""))
                SELECT 1, 'k' || n, zeroblob(200), 200 + length('k' || n), n, n, n % 7\(sortValues ? ", iif(n % 3 = 0, n, NULL)" : "") FROM i;
            """)
    }

    private static func hasAccessIndex(_ path: String) throws -> Bool {
        try rawScalar(path: path, "SELECT count(*) FROM sqlite_schema WHERE name = 'entries_by_access'") == 1
    }

    /// Every entry is there, through the store, with its hits and (from format 7) sort values.
    private static func expectEveryEntry(_ store: CacheStore, from version: Int) throws {
        let cache = try store.dataCache("n", key: String.self)
        #expect(try cache.count() == Self.entries)
        let byHits = try store.inspector.entries(EntryQuery(namespace: "n", sort: EntrySort(.hits, descending: true)))
        #expect(byHits.rows.first?.hits == 6)
        if version >= Schema.sortValuesVersion {
            let bySortValue = try cache.entries(CacheQuery(orderedBy: EntrySort(.sortValue, descending: true)))
            #expect(bySortValue.entries.first?.sortValue == Int64(Self.entries - 1) / 3 * 3)
        }
    }

    @Test(arguments: [5, 6, 7])
    func anOpenDropsTheAccessIndexAndKeepsEveryEntry(_ version: Int) throws {
        let folder = TemporaryFolder()
        let path = folder.file()
        try Self.olderFile(at: path, version: version)
        #expect(try Self.hasAccessIndex(path))
        let store = try CacheStore(path: path, options: StoreOptions(clock: ManualClock()))
        defer { try? store.close() }
        #expect(try rawScalar(path: path, "PRAGMA user_version") == Int64(Schema.currentVersion))
        #expect(try !Self.hasAccessIndex(path))
        try Self.expectEveryEntry(store, from: version)
    }

    /// SIGKILL at random moments of an open that migrates (the helper process): the file is
    /// whole at either format, and the next open finishes the migration.
    @Test(arguments: [6, 7])
    func anAppKilledWhileItMigratesLeavesAFileTheNextOpenFinishes(_ version: Int) throws {
        let folder = TemporaryFolder()
        let original = folder.file("v\(version).sqlite")
        try Self.olderFile(at: original, version: version)
        let whole = try timedOpen(of: original, in: folder).took
        let rounds = TestScale.count(ci: 6, full: 30)
        var unmigrated = 0
        for round in 0..<rounds {
            let path = try killedOpen(of: original, in: folder, round: round, within: whole)
            let found = try rawScalar(path: path, "PRAGMA user_version")
            if found == Int64(version) { unmigrated += 1 }
            #expect(found == Int64(version) || found == Int64(Schema.currentVersion), "round \(round)")
            #expect(
                try Self.hasAccessIndex(path) == (found == Int64(version)),
                "round \(round): the index goes with format \(version)")
            #expect(try rawScalar(path: path, "SELECT count(*) FROM entries WHERE key LIKE 'k%'") == Int64(Self.entries))
            let store = try CacheStore(path: path, options: StoreOptions(clock: ManualClock()))
            #expect(try rawScalar(path: path, "PRAGMA user_version") == Int64(Schema.currentVersion))
            try Self.expectEveryEntry(store, from: version)
            try store.close()
        }
        print(
            "format \(version) -> \(Schema.currentVersion), \(Self.entries) entries: one open takes \(whole); "
                + "\(rounds) opens killed at random moments, \(unmigrated) left format \(version); every file whole")
    }
}
