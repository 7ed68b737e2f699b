import Foundation

extension Schema {
    /// The invalidation journal: every invalidation any process ran, so processes with a
    /// memory tier drop what others removed. `selector` is the ``InvalidationSelector`` as
    /// JSON; `origin` names the store instance that ran it (`pid@host#id`). Trimming removes
    /// only the oldest rows, never the newest, so `seq` keeps growing without AUTOINCREMENT
    /// (which would dirty one more page per invalidation).
    static let invalidationJournal = """
        CREATE TABLE invalidations (
            seq INTEGER PRIMARY KEY,
            at INTEGER NOT NULL,
            origin TEXT NOT NULL,
            selector TEXT NOT NULL,
            removed INTEGER NOT NULL
        );
        """
}

/// One row of the invalidation journal.
struct JournalRecord: Sendable {
    let seq: Int64
    let origin: String
    let selector: InvalidationSelector
}

extension SQLiteConnection {
    /// The journal keeps this many newest rows; a process that falls further behind clears
    /// its memory tiers instead of replaying.
    static let journalRetention: Int64 = 10_000

    /// One encoder for every journal row (making one per row costs more than the insert).
    private static let selectorEncoder = JSONEncoder()

    /// Appends `selector` to the journal and trims old rows now and then.
    func appendInvalidation(_ selector: InvalidationSelector, removed: Int, origin: String, now: Int64) throws {
        let json = String(decoding: try Self.selectorEncoder.encode(selector), as: UTF8.self)
        try run(
            "INSERT INTO invalidations (at, origin, selector, removed) VALUES (?1, ?2, ?3, ?4)",
            now, origin, json, removed)
        let seq = lastInsertedRowID
        if seq % 1000 == 0 {
            try run("DELETE FROM invalidations WHERE seq <= ?1", seq - Self.journalRetention)
        }
    }

    /// The newest journal sequence number (0 when empty).
    func latestInvalidation() throws -> Int64 {
        try scalar("SELECT coalesce(max(seq), 0) FROM invalidations") ?? 0
    }

    /// The oldest journal sequence number kept (0 when empty).
    func oldestInvalidation() throws -> Int64 {
        try scalar("SELECT coalesce(min(seq), 0) FROM invalidations") ?? 0
    }

    /// Journal rows after `seq`, oldest first. Rows that no longer decode are skipped.
    func invalidations(after seq: Int64) throws -> [JournalRecord] {
        let decoder = JSONDecoder()
        return try withStatement("SELECT seq, origin, selector FROM invalidations WHERE seq > ?1 ORDER BY seq") {
            statement in
            statement.bind(seq)
            return try statement.rows { row in
                (
                    row.int64(0), row.text(1),
                    try? decoder.decode(InvalidationSelector.self, from: Data(row.text(2).utf8))
                )
            }
        }.compactMap { seq, origin, selector in selector.map { JournalRecord(seq: seq, origin: origin, selector: $0) } }
    }
}
