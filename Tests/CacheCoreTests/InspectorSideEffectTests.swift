import Foundation
import Testing

@testable import CacheCore

/// The inspector never writes: not the file, not the log, not the access counters.
@Suite struct InspectorSideEffectTests {
    /// Every inspector call, over every order and a few filters, and every entry's detail.
    static func exercise(_ inspector: Inspector) throws {
        _ = try inspector.summary()
        _ = try inspector.namespaces()
        _ = try inspector.namespace("n")
        let filters = ["", "size>1 hits=0 k", "regex:k1 tag:t", "expired", "ttl<1h", "never prefix:k"]
        var ids: Set<Int64> = []
        for field in EntrySortField.allCases {
            for descending in [false, true] {
                for filter in filters {
                    let query = EntryQuery(
                        namespace: "n", sort: EntrySort(field, descending: descending),
                        filter: try EntryFilter(parsing: filter), limit: 7)
                    ids.formUnion(try inspector.allIDs(query))
                }
            }
        }
        #expect(ids.count == 40)
        for id in ids {
            _ = try inspector.entry(id: id)
            _ = try inspector.entry(id: id, options: EntryDetailOptions(format: .hexDump))
        }
        _ = try inspector.expiryTimeline()
        _ = try inspector.expiryTimeline(namespace: "n")
        for kind in TopListKind.allCases {
            _ = try inspector.top(kind)
            _ = try inspector.top(kind, namespace: "n", scanLimit: 5)
        }
    }

    /// Everything a write would change: every row's counters and times, and the namespaces.
    static func state(_ fixture: TestStore) throws -> [Int64] {
        try fixture.column(
            """
            SELECT id + hits + accessed_at + created_at + coalesce(expires_at, 0) + size FROM entries
            UNION ALL SELECT entry_count + total_bytes + generation + updated_at FROM namespaces
            """)
    }

    @Test(arguments: [false, true])
    func inspectingLeavesTheFileByteForByteUnchanged(readOnly: Bool) throws {
        let fixture = try TestStore()
        let cache = try fixture.store.cache("n", key: String.self, value: [String: Int].self)
        for index in 0..<40 {
            try cache.set(
                ["v": index], for: "k\(index)", expiration: index % 3 == 0 ? .never : .after(.seconds(Int64(index))),
                tags: index % 4 == 0 ? ["t"] : [])
        }
        _ = try cache.get("k1")
        try fixture.store.flush()
        fixture.clock.advance(by: .seconds(10))
        try fixture.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let watcher = try SQLiteConnection(path: fixture.path, readOnly: true, create: false, busyTimeout: .seconds(5))
        let dataVersion = try watcher.scalar("PRAGMA data_version")
        let bytes = fileBytes(fixture.path)
        let log = fileBytes(fixture.path + "-wal")
        let state = try Self.state(fixture)

        let store = readOnly ? try fixture.inspectionStore() : fixture.store
        try Self.exercise(store.inspector)
        try store.flush()

        #expect(try watcher.scalar("PRAGMA data_version") == dataVersion, "no connection committed anything")
        #expect(fileBytes(fixture.path) == bytes)
        #expect(fileBytes(fixture.path + "-wal") == log)
        #expect(try Self.state(fixture) == state)
        #expect(store.accessLog.isEmpty, "no read was recorded for a later flush")
    }
}
