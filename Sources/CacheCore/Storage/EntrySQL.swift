import Foundation

/// What a point read found through a namespace id this process resolved earlier.
enum EntryLookup {
    case found(StoredEntry)
    case missing
    /// The id is no longer the namespace's live row: resolve the name again.
    case moved
}

/// The SQL for reading and writing entries, kept in one place so it can be read as a whole.
extension SQLiteConnection {
    /// The entry `key` of the namespace `name` through the id this process resolved for it,
    /// or ``EntryLookup/moved`` when that id is no longer the namespace's live row (it was
    /// cleared or retired by another process since): one statement, one extra rowid probe.
    func lookupEntry(namespaceID: Int64, name: String, key: String) throws -> EntryLookup {
        try withStatement(
            """
            SELECT e.id, e.value, e.created_at, e.expires_at, e.stale_until, e.version, e.tags
            FROM namespaces n LEFT JOIN entries e ON e.namespace_id = n.id AND e.key = ?2
            WHERE n.id = ?1 AND n.name = ?3
            """
        ) { statement in
            statement.bind(namespaceID, key, name)
            return try statement.firstRow { row -> EntryLookup in
                guard !row.isNull(0) else { return .missing }
                return .found(
                    StoredEntry(
                        id: row.int64(0), value: row.blob(1), createdAt: row.int64(2), expiresAt: row.optionalInt64(3),
                        staleUntil: row.optionalInt64(4), version: row.text(5),
                        tagsJSON: row.isNull(6) ? nil : row.text(6)))
            } ?? .moved
        }
    }

    /// Writes one entry unless `namespaceID` is no longer the live row of namespace `name`
    /// (returns `false` then, having written nothing): one autocommit statement.
    ///
    /// The liveness check is the `namespace_id` value itself: the namespace row's id, or NULL
    /// when it is gone, which `OR IGNORE` turns into skipping the row (no other column can be
    /// NULL; the upsert still handles the key's conflict). `INSERT … SELECT … WHERE EXISTS`
    /// would say the same, but with row triggers on `entries` SQLite runs an INSERT's SELECT
    /// through a temporary b-tree, created and dropped on every set (a sixth of its work).
    func upsertEntry(namespaceID: Int64, ifLiveAs name: String, _ write: EntryWrite, version: String, now: Int64)
        throws -> Bool
    {
        try run(
            """
            INSERT OR IGNORE INTO entries (namespace_id, key, value, size, created_at, expires_at, stale_until, accessed_at, version, tags, sort_value)
            VALUES ((SELECT id FROM namespaces WHERE id = ?1 AND name = ?12), ?2, ?3, ?4, ?5, ?6, ?7, ?10, ?8, ?9, ?11)
            ON CONFLICT (namespace_id, key) DO UPDATE SET
                value = excluded.value, size = excluded.size, created_at = excluded.created_at,
                expires_at = excluded.expires_at, stale_until = excluded.stale_until,
                accessed_at = excluded.accessed_at, version = excluded.version, tags = excluded.tags,
                sort_value = excluded.sort_value
            """,
            namespaceID, write.key, write.value, write.size, write.writtenAt, write.attributes.expiresAt,
            write.attributes.staleUntil, version, write.attributes.tagsJSON, now, write.attributes.sortValue, name) > 0
    }

    /// Writes one entry, in a write transaction that checked the namespace is live
    /// (``isLiveNamespace(id:name:)``). `created_at` is when the set happened, `accessed_at`
    /// when it reached the file (`now`; later than the set with write-behind).
    func upsertEntry(namespaceID: Int64, _ write: EntryWrite, version: String, now: Int64) throws {
        try run(
            """
            INSERT INTO entries (namespace_id, key, value, size, created_at, expires_at, stale_until, accessed_at, version, tags, sort_value)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?10, ?8, ?9, ?11)
            ON CONFLICT (namespace_id, key) DO UPDATE SET
                value = excluded.value, size = excluded.size, created_at = excluded.created_at,
                expires_at = excluded.expires_at, stale_until = excluded.stale_until,
                accessed_at = excluded.accessed_at, version = excluded.version, tags = excluded.tags,
                sort_value = excluded.sort_value
            """,
            namespaceID, write.key, write.value, write.size, write.writtenAt, write.attributes.expiresAt,
            write.attributes.staleUntil, version, write.attributes.tagsJSON, now, write.attributes.sortValue)
    }

    /// Writes `writes` in order, as ``upsertEntry(namespaceID:_:version:now:)`` does one by
    /// one, in a write transaction that checked the namespace is live.
    ///
    /// Inside a transaction, every statement that can fire triggers runs in a statement
    /// savepoint, which copies each page it touches (five per entry) into the statement
    /// journal first: a third of a batched set's work when each row is a statement of its
    /// own. So rows go in groups of ``upsertGroupSizes`` per statement (one multi-row
    /// `VALUES`, whose rows SQLite inserts in order, an upsert of a key repeated in the group
    /// updating the row inserted before it). What every row shares (namespace, version, the
    /// time it reaches the file) is bound once per statement.
    func upsertEntries(namespaceID: Int64, _ writes: [EntryWrite], version: String, now: Int64) throws {
        var start = writes.startIndex
        for (rows, sql) in zip(Self.upsertGroupSizes, Self.upsertGroupSQL) {
            while writes.endIndex - start >= rows {
                try withStatement(sql) { statement in
                    statement.bind(namespaceID, version, now)
                    for (offset, write) in writes[start..<start + rows].enumerated() {
                        statement.bind(
                            from: Int32(offset * 8 + 4), write.key, write.value, write.size, write.writtenAt,
                            write.attributes.expiresAt, write.attributes.staleUntil, write.attributes.tagsJSON,
                            write.attributes.sortValue)
                    }
                    try statement.run()
                }
                start += rows
            }
        }
    }

    /// Rows per statement of ``upsertEntries(namespaceID:_:version:now:)``, largest first
    /// (a 1,000-row set is 31 statements of 32 rows and one of 8).
    static let upsertGroupSizes = [32, 8, 1]

    /// The multi-row upserts of ``upsertGroupSizes``: `?1` the namespace id, `?2` the version,
    /// `?3` the time the rows reach the file; row `r` binds `?(8r + 4)`…`?(8r + 11)`: key,
    /// value, size, write time, expiry, end of the stale window, tags, sort value.
    static let upsertGroupSQL = upsertGroupSizes.map { rows in
        let values = (0..<rows).map { row in
            let p = (4...11).map { "?\(row * 8 + $0)" }
            return "(?1, \(p[0]), \(p[1]), \(p[2]), \(p[3]), \(p[4]), \(p[5]), ?3, ?2, \(p[6]), \(p[7]))"
        }
        return FixedSQL(
            """
            INSERT INTO entries (namespace_id, key, value, size, created_at, expires_at, stale_until, accessed_at, version, tags, sort_value)
            VALUES \(values.joined(separator: ", "))
            ON CONFLICT (namespace_id, key) DO UPDATE SET
                value = excluded.value, size = excluded.size, created_at = excluded.created_at,
                expires_at = excluded.expires_at, stale_until = excluded.stale_until,
                accessed_at = excluded.accessed_at, version = excluded.version, tags = excluded.tags,
                sort_value = excluded.sort_value
            """)
    }

    /// Deletes `key` of the live namespace `namespace` (in the caller's write transaction, with
    /// the counters); returns whether it was there.
    ///
    /// A point read finds the row, then the row is deleted by id and its namespace's counters
    /// adjusted: `DELETE … RETURNING` would collect its one row in a temporary b-tree, and the
    /// id found through `namespaces` is a live namespace's, so its partition counters need no
    /// update (see ``addToCounters(of:entries:bytes:)``). Not through the deletion engine
    /// (``deleteDoomed()``): filling `temp.doomed` and grouping it for one row would cost an
    /// app's `remove` several times the delete itself.
    func deleteEntry(namespace: String, key: String) throws -> Bool {
        let found = try withStatement(
            """
            SELECT e.id, e.namespace_id, e.size
            FROM namespaces n JOIN entries e ON e.namespace_id = n.id AND e.key = ?2
            WHERE n.name = ?1
            """
        ) { statement in
            statement.bind(namespace, key)
            return try statement.firstRow { (id: $0.int64(0), namespaceID: $0.int64(1), size: $0.int(2)) }
        }
        guard let found else { return false }
        try run("DELETE FROM entries WHERE id = ?1", found.id)
        try run(
            "UPDATE namespaces SET entry_count = entry_count - 1, total_bytes = total_bytes - ?2 WHERE id = ?1",
            found.namespaceID, found.size)
        return true
    }

    /// Deletes up to `limit` expired entries, only those past their stale window when
    /// `keepingStaleWindow`; returns how many.
    func deleteExpired(namespaceID: Int64, now: Int64, keepingStaleWindow: Bool, limit: Int) throws -> Int {
        // `?4` bounds `stale_until`: `now` keeps the stale window, the largest time ignores it.
        let staleBound = keepingStaleWindow ? now : Int64.max
        let doomed = try fillDoomed(
            "SELECT id FROM entries WHERE namespace_id = ?1 AND expires_at <= ?2 AND stale_until <= ?4 LIMIT ?3",
            namespaceID, now, limit, staleBound)
        guard doomed > 0 else { return 0 }
        // The doomed rows' bytes, summed from the expiry index (which holds `size`) over the
        // range just read, rather than by looking each row up again as ``deleteDoomed()``
        // does: all the rows are of one namespace, so one counter update does, and the
        // engine's pass over the table would be a third of the sweep's time. Should the index
        // disagree (a row changed since), the engine deletes the batch.
        let bytes = try withStatement(
            """
            SELECT count(*), coalesce(sum(size), 0) FROM (
                SELECT size FROM entries
                WHERE namespace_id = ?1 AND expires_at <= ?2 AND stale_until <= ?4 AND id IN temp.doomed LIMIT ?3)
            """
        ) { statement in
            statement.bind(namespaceID, now, doomed, staleBound)
            return try statement.firstRow { (entries: $0.int(0), bytes: $0.int(1)) }
        }
        guard let bytes, bytes.entries == doomed else { return try deleteDoomed().entries }
        try addToCounters(of: namespaceID, entries: -doomed, bytes: -bytes.bytes)
        try run("DELETE FROM entries WHERE id IN temp.doomed")
        return doomed
    }

    /// Entries that exist but have expired (not yet swept), found through the expiry index.
    func countExpired(namespaceID: Int64, now: Int64) throws -> Int {
        Int(
            try scalar("SELECT count(*) FROM entries WHERE namespace_id = ?1 AND expires_at <= ?2", namespaceID, now)
                ?? 0)
    }
}

/// The reads of size-limit eviction: entries as ``Eviction`` picks them, in the order it removes them.
extension SQLiteConnection {
    /// Least recently used first, with the access time the store-wide merge compares (a sort
    /// of the namespace's rows: only small namespaces are evicted in this exact order).
    private static let entriesByRecency: StaticString =
        "SELECT id, size, accessed_at FROM entries WHERE namespace_id = ?1 ORDER BY accessed_at, id"

    /// The passes over a namespace's entries (`?1`) that list them in the order `eviction`
    /// removes them, one after the other. By sort value, entries without one come first (by
    /// id, a pass over the namespace) and then the others through their partial index.
    static func evictionPasses(_ eviction: NamespacePolicy.Eviction) -> [StaticString] {
        switch eviction {
        case .leastRecentlyUsed: [entriesByRecency]
        case .oldestCreated: ["SELECT id, size FROM entries WHERE namespace_id = ?1 ORDER BY id"]
        case .lowestSortValue:
            [
                "SELECT id, size FROM entries WHERE namespace_id = ?1 AND sort_value IS NULL ORDER BY id",
                """
                SELECT id, size FROM entries INDEXED BY entries_by_sort_value
                WHERE namespace_id = ?1 AND sort_value IS NOT NULL ORDER BY sort_value, id
                """,
            ]
        }
    }

    /// Runs `body` over the namespace's entries listed by `pass` (see ``evictionPasses(_:)``).
    func withEntries<T>(
        namespaceID: Int64, listedBy pass: StaticString, _ body: (RowCursor<Eviction.Victim>) throws -> T
    ) throws -> T {
        try withStatement(pass) { statement in
            statement.bind(namespaceID)
            return try body(RowCursor(statement: statement, read: Self.victim))
        }
    }

    /// Runs `body` over the namespace's entries expired at `now`, soonest expired first.
    func withExpiredEntries<T>(
        namespaceID: Int64, now: Int64, _ body: (RowCursor<Eviction.Victim>) throws -> T
    ) throws -> T {
        try withStatement(
            "SELECT id, size FROM entries WHERE namespace_id = ?1 AND expires_at <= ?2 ORDER BY expires_at"
        ) { statement in
            statement.bind(namespaceID, now)
            return try body(RowCursor(statement: statement, read: Self.victim))
        }
    }

    /// Runs `body` with a cursor per namespace of `namespaceIDs` (all open at once) over its
    /// entries, least recently used first, each with its access time.
    func withEntriesByRecency<T>(
        namespaceIDs: [Int64], _ body: ([RowCursor<(victim: Eviction.Victim, accessedAt: Int64)>]) throws -> T
    ) throws -> T {
        let statements = try namespaceIDs.map { namespaceID in
            let statement = try prepare(Self.entriesByRecency.description)
            statement.bind(namespaceID)
            return statement
        }
        defer { for statement in statements { statement.reset() } }
        return try body(
            statements.map { statement in
                RowCursor(statement: statement) { (victim: Self.victim($0), accessedAt: $0.int64(2)) }
            })
    }

    /// One draw of sampled eviction, uniform over the entries of namespace `namespaceID` (of
    /// any when it is `nil`): up to `tries` random ids in `ids`, the first that is such an
    /// entry's (rejection sampling, so the gaps evicted ids leave do not weigh the draw).
    /// `nil` when every try missed. The ids are drawn inside SQLite, one row-id seek each.
    func randomEntry(in ids: ClosedRange<Int64>, namespaceID: Int64?, tries: Int) throws -> SampledEviction.Candidate? {
        try withStatement(
            """
            WITH RECURSIVE draws(n, id) AS (
                SELECT 1, ?1 + (random() & 9223372036854775807) % ?2
                UNION ALL SELECT n + 1, ?1 + (random() & 9223372036854775807) % ?2 FROM draws WHERE n < ?3)
            SELECT e.id, e.size, e.accessed_at, e.namespace_id FROM draws CROSS JOIN entries AS e ON e.id = draws.id
            WHERE ?4 IS NULL OR e.namespace_id = ?4 LIMIT 1
            """
        ) { statement in
            statement.bind(ids.lowerBound, ids.upperBound - ids.lowerBound + 1, tries, namespaceID)
            return try statement.firstRow(Self.candidate)
        }
    }

    /// The first entry whose id is at least `id`, of namespace `namespaceID` or of any when it
    /// is `nil`: the draw sampled eviction falls back to when ``randomEntry(in:namespaceID:tries:)``
    /// misses (ids too sparse), a seek in the table's own b-tree (`+` keeps SQLite from
    /// ranging over the namespace's key index instead). It favours entries after wide gaps.
    func entry(atOrAfter id: Int64, namespaceID: Int64?) throws -> SampledEviction.Candidate? {
        let sql: StaticString =
            namespaceID == nil
            ? "SELECT id, size, accessed_at, namespace_id FROM entries WHERE id >= ?1 ORDER BY id LIMIT 1"
            : "SELECT id, size, accessed_at, namespace_id FROM entries WHERE id >= ?1 AND +namespace_id = ?2 ORDER BY id LIMIT 1"
        return try withStatement(sql) { statement in
            statement.bind(id, namespaceID ?? 0)
            return try statement.firstRow(Self.candidate)
        }
    }

    /// Entry `id` as sampled eviction compares it, if it is still there.
    func evictionCandidate(id: Int64) throws -> SampledEviction.Candidate? {
        try withStatement("SELECT id, size, accessed_at, namespace_id FROM entries WHERE id = ?1") { statement in
            statement.bind(id)
            return try statement.firstRow(Self.candidate)
        }
    }

    /// The candidate a statement is on (columns id, size, accessed_at, namespace_id).
    private static func candidate(_ row: SQLiteStatement) -> SampledEviction.Candidate {
        SampledEviction.Candidate(id: row.int64(0), namespaceID: row.int64(3), size: row.int(1), accessedAt: row.int64(2))
    }

    /// The id and size of the row a statement is on (columns 0 and 1).
    private static func victim(_ row: SQLiteStatement) -> Eviction.Victim {
        Eviction.Victim(id: row.int64(0), size: row.int(1))
    }
}

/// The reads and writes of entries outside a point read or write: access times, coherence
/// checks and the inspector's questions.
extension SQLiteConnection {
    /// Adds `hits` reads to entry `id` and moves its access time up to `lastAt`.
    func recordAccess(id: Int64, lastAt: Int64, hits: Int64) throws {
        try run(
            "UPDATE entries SET accessed_at = max(accessed_at, ?1), hits = hits + ?2 WHERE id = ?3", lastAt, hits, id)
    }

    /// Adds `hits` memory-tier reads to `key` of namespace row `namespaceID` and moves its
    /// access time up to `lastAt`.
    func recordAccess(namespaceID: Int64, key: String, lastAt: Int64, hits: Int64) throws {
        try run(
            """
            UPDATE entries SET accessed_at = max(accessed_at, ?1), hits = hits + ?2
            WHERE namespace_id = ?3 AND key = ?4
            """, lastAt, hits, namespaceID, key)
    }

    /// Fills `temp.doomed` with those of `ids` that are past their stale window at `now`.
    func fillDoomed(purgeable ids: [Int64], now: Int64) throws {
        let json = String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)
        try fillDoomed(
            "SELECT id FROM entries WHERE id IN (SELECT value FROM json_each(?1)) AND stale_until <= ?2", json, now)
    }

    /// The id, namespace row and written hits of `key` in namespace `name`, if its entry has
    /// `version`.
    func entryHits(namespace name: String, key: String, version: String) throws
        -> (id: Int64, namespaceID: Int64, hits: Int64)?
    {
        try withStatement(
            """
            SELECT e.id, n.id, e.hits FROM namespaces n JOIN entries e ON e.namespace_id = n.id AND e.key = ?2
            WHERE n.name = ?1 AND e.version = ?3
            """
        ) { statement in
            statement.bind(name, key, version)
            return try statement.firstRow { ($0.int64(0), $0.int64(1), $0.int64(2)) }
        }
    }

    /// The row id of `key` in namespace `name`.
    func entryID(namespace name: String, key: String) throws -> Int64? {
        try scalar(
            "SELECT e.id FROM entries e JOIN namespaces n ON n.id = e.namespace_id WHERE n.name = ?1 AND e.key = ?2",
            name, key)
    }

    /// The row id of the key whose bytes are `key` (not valid UTF-8) in namespace `name`.
    func entryID(namespace name: String, keyBytes key: Data) throws -> Int64? {
        try scalar(
            """
            SELECT e.id FROM entries e JOIN namespaces n ON n.id = e.namespace_id
            WHERE n.name = ?1 AND e.key = CAST(?2 AS TEXT)
            """, name, key)
    }

    /// Entries of the namespace whose expiry is in `range` (`nil`: never) and their bytes,
    /// from the index alone.
    func expiringTotals(namespaceID: Int64, in range: ClosedRange<Int64>?) throws -> (Int, Int64) {
        guard let range else {
            return try withStatement(
                "SELECT count(*), coalesce(sum(size), 0) FROM entries WHERE namespace_id = ?1 AND expires_at IS NULL"
            ) { statement in
                statement.bind(namespaceID)
                return try statement.firstRow { ($0.int(0), $0.int64(1)) } ?? (0, 0)
            }
        }
        return try withStatement(
            """
            SELECT count(*), coalesce(sum(size), 0) FROM entries
            WHERE namespace_id = ?1 AND expires_at BETWEEN ?2 AND ?3
            """
        ) { statement in
            statement.bind(namespaceID, range.lowerBound, range.upperBound)
            return try statement.firstRow { ($0.int(0), $0.int64(1)) } ?? (0, 0)
        }
    }

    /// How many entries match `condition` (built with ``SQLBuilder``, whose `values` it
    /// binds), and their bytes.
    func entryTotals(where condition: String, _ values: [SQLValue]) throws -> (entries: Int, bytes: Int) {
        try rows("SELECT count(*), coalesce(sum(size), 0) FROM entries WHERE \(condition)", values) {
            ($0.int(0), $0.int(1))
        }.first ?? (0, 0)
    }

    /// Calls `visit` with the key bytes and size of each entry matching `condition` (built
    /// with ``SQLBuilder``, whose `values` it binds).
    func forEachEntryKey(
        where condition: String, _ values: [SQLValue], _ visit: (_ key: Data, _ size: Int) throws -> Void
    ) throws {
        try withDynamicStatement("SELECT CAST(key AS BLOB), size FROM entries WHERE \(condition)") { statement in
            statement.bind(values)
            while try statement.step() { try visit(statement.blob(0), statement.int(1)) }
        }
    }
}

/// An `entries` row as salvage copies it: every column as stored (`nil` where NULL), the key,
/// version and tags as bytes so no text is altered.
struct SalvagedEntry {
    let namespaceID: Int64?
    let key: Data?
    let value: Data?
    let size: Int64?
    let createdAt: Int64?
    let expiresAt: Int64?
    let staleUntil: Int64?
    let accessedAt: Int64?
    let hits: Int64?
    let version: Data?
    let tags: Data?
    let sortValue: Int64?
}

/// The SQL of salvage (see ``Salvage``): entries read up to damaged pages and copied by id.
extension SQLiteConnection {
    /// The entry ids that can be read from the table or through `index`, up to the first
    /// damaged page.
    func readableEntryIDs(indexedBy index: String?) -> [Int64] {
        // `NOT INDEXED` for the table itself: SQLite would read ids from the smallest index.
        readableRows("SELECT id FROM entries" + (index.map { " INDEXED BY " + Self.quoted($0) } ?? " NOT INDEXED")) {
            $0.int64(0)
        }
    }

    /// Entry `id` as stored, or `nil` when there is none; its sort value only from a file of
    /// format 7 or later (`withSortValue`).
    func salvagedEntry(id: Int64, withSortValue: Bool) throws -> SalvagedEntry? {
        let sql: StaticString =
            withSortValue
            ? """
            SELECT namespace_id, CAST(key AS BLOB), value, size, created_at, expires_at, stale_until,
                   accessed_at, hits, CAST(version AS BLOB), CAST(tags AS BLOB), sort_value
            FROM entries WHERE id = ?1
            """
            : """
            SELECT namespace_id, CAST(key AS BLOB), value, size, created_at, expires_at, stale_until,
                   accessed_at, hits, CAST(version AS BLOB), CAST(tags AS BLOB), NULL
            FROM entries WHERE id = ?1
            """
        return try withStatement(sql) { statement in
            statement.bind(id)
            return try statement.firstRow { row in
                func bytes(_ column: Int32) -> Data? { row.isNull(column) ? nil : row.blob(column) }
                return SalvagedEntry(
                    namespaceID: row.optionalInt64(0), key: bytes(1), value: bytes(2), size: row.optionalInt64(3),
                    createdAt: row.optionalInt64(4), expiresAt: row.optionalInt64(5),
                    staleUntil: row.optionalInt64(6), accessedAt: row.optionalInt64(7), hits: row.optionalInt64(8),
                    version: bytes(9), tags: bytes(10), sortValue: row.optionalInt64(11))
            }
        }
    }

    /// Inserts `entry` as entry `id` (unless that id is taken).
    func insertSalvagedEntry(_ entry: SalvagedEntry, id: Int64) throws {
        try run(
            """
            INSERT OR IGNORE INTO entries (id, namespace_id, key, value, size, created_at, expires_at, stale_until,
                accessed_at, hits, version, tags, sort_value)
            VALUES (?1, ?2, CAST(?3 AS TEXT), ?4, ?5, ?6, ?7, ?8, ?9, ?10, CAST(?11 AS TEXT), CAST(?12 AS TEXT), ?13)
            """,
            id, entry.namespaceID, entry.key, entry.value, entry.size, entry.createdAt, entry.expiresAt,
            entry.staleUntil, entry.accessedAt, entry.hits, entry.version, entry.tags, entry.sortValue)
    }

    /// Fills the tag index from every entry's tags.
    func rebuildTagIndex() throws {
        try execute(
            """
            INSERT OR IGNORE INTO entry_tags (tag, entry_id, namespace_id, key)
            SELECT j.value, e.id, e.namespace_id, e.key FROM entries e, json_each(e.tags) j
            WHERE e.tags IS NOT NULL AND json_valid(e.tags) AND j.value IS NOT NULL
            """)
    }
}

/// The SQL of ``NormalizedKeys``, the format-6 step that brings keys to Normalization Form C.
extension SQLiteConnection {
    /// The entries (live or in a partition) whose key is not ASCII: their id, namespace or
    /// partition id, key bytes, write time and size. Characters and bytes differ only in such keys.
    func nonASCIIKeys() throws -> [(id: Int64, namespaceID: Int64, key: [UInt8], createdAt: Int64, size: Int)] {
        try withStatement(
            """
            SELECT id, namespace_id, CAST(key AS BLOB), created_at, size FROM entries
            WHERE length(key) != length(CAST(key AS BLOB))
            """
        ) { statement in
            try statement.rows { ($0.int64(0), $0.int64(1), [UInt8]($0.blob(2)), $0.int64(3), $0.int(4)) }
        }
    }

    /// The entry of namespace or partition `namespaceID` stored under exactly `key`: its id,
    /// write time and size.
    func entryStored(namespaceID: Int64, key: String) throws -> (id: Int64, createdAt: Int64, size: Int)? {
        try withStatement("SELECT id, created_at, size FROM entries WHERE namespace_id = ?1 AND key = ?2") {
            statement in
            statement.bind(namespaceID, key)
            return try statement.firstRow { ($0.int64(0), $0.int64(1), $0.int(2)) }
        }
    }

    /// Deletes entry `id` of namespace or partition `namespaceID`, `size` bytes, with its counters.
    func deleteEntry(id: Int64, namespaceID: Int64, size: Int) throws {
        try run("DELETE FROM entries WHERE id = ?1", id)
        try addToCounters(of: namespaceID, entries: -1, bytes: -size)
    }

    /// Stores entry `id` of namespace or partition `namespaceID` under `key`, whose UTF-8 is
    /// `byteChange` bytes longer than the old key's (a trigger updates a live namespace's
    /// bytes; a partition's are updated here).
    func rekeyEntry(id: Int64, namespaceID: Int64, key: String, byteChange: Int) throws {
        try run("UPDATE entries SET key = ?2, size = size + ?3 WHERE id = ?1", id, key, byteChange)
        try run("UPDATE partitions SET total_bytes = total_bytes + ?2 WHERE id = ?1", namespaceID, byteChange)
    }
}

extension SQLiteConnection {
    /// The values and sort values of entries `ids`, by id (for a query page the inspector
    /// listed); no sort values from a file older than format 7 (`withSortValues` false).
    func values(ofEntries ids: [Int64], withSortValues: Bool) throws -> [Int64: (value: Data, sortValue: Int64?)] {
        guard !ids.isEmpty else { return [:] }
        let sql: StaticString =
            withSortValues
            ? "SELECT id, value, sort_value FROM entries WHERE id IN (SELECT value FROM json_each(?1))"
            : "SELECT id, value, NULL FROM entries WHERE id IN (SELECT value FROM json_each(?1))"
        return try withStatement(sql) { statement in
            statement.bind(Self.jsonArray(ids))
            return Dictionary(
                try statement.rows { ($0.int64(0), ($0.blob(1), $0.optionalInt64(2))) },
                uniquingKeysWith: { first, _ in first })
        }
    }
}
