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

    /// Format v3: the store instances holding a memory tier (or write-behind queue), which
    /// are the only readers of the journal. Invalidations are journaled only while another
    /// instance is registered; an instance registers before it keeps any copy, and a writer
    /// looks inside its own write transaction, so no removal a registered instance needs is
    /// missed. Rows of instances that died are removed by maintenance.
    static let memoryTierRegistry = """
        CREATE TABLE memory_tiers (
            origin TEXT PRIMARY KEY,
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            since INTEGER NOT NULL
        ) WITHOUT ROWID;
        """
}

extension Schema {
    /// Format v8: the write journal, from which processes holding memory copies learn which
    /// keys others rewrote (``CoherenceMonitor``). Each writer connection fills it through a
    /// temporary trigger (``SQLiteConnection/journalEntryWrites(origin:)``) only while an
    /// instance other than its own holds a memory tier, so a store nobody else copies from
    /// pays one registry lookup per written row. Like the invalidation journal, `seq` grows
    /// without AUTOINCREMENT and only the oldest rows are trimmed.
    static let entryWrites = """

        CREATE TABLE entry_writes (
            seq INTEGER PRIMARY KEY,
            namespace_id INTEGER NOT NULL,
            key TEXT NOT NULL,
            written_at INTEGER NOT NULL
        );
        """
}

/// One row of the invalidation journal.
struct JournalRecord: Sendable {
    let seq: Int64
    let origin: String
    let change: JournalChange
}

/// What one journal row tells other store instances to drop from memory.
enum JournalChange: Sendable, Hashable {
    /// What an invalidation selector selects; the row holds the selector's JSON.
    case invalidated(InvalidationSelector)
    /// What an explicit sweep at `at` removed: every entry expired then (only those past their
    /// stale window when `keepingStaleWindow`), in one namespace or all. The row holds
    /// `{"sweep": {"namespace"?, "at", "keepingStaleWindow"}}`, which older readers skip.
    case swept(namespace: String?, at: Int64, keepingStaleWindow: Bool)

    private struct SweepRow: Codable {
        struct Sweep: Codable {
            let namespace: String?
            let at: Int64
            let keepingStaleWindow: Bool
        }
        let sweep: Sweep
    }

    /// The row's JSON.
    func json(_ encoder: JSONEncoder) throws -> String {
        let data =
            switch self {
            case .invalidated(let selector): try encoder.encode(selector)
            case .swept(let namespace, let at, let keeping):
                try encoder.encode(
                    SweepRow(sweep: SweepRow.Sweep(namespace: namespace, at: at, keepingStaleWindow: keeping)))
            }
        return String(decoding: data, as: UTF8.self)
    }

    /// The change a row's JSON holds, or `nil` when it is neither shape.
    init?(json: String, _ decoder: JSONDecoder) {
        let data = Data(json.utf8)
        if let row = try? decoder.decode(SweepRow.self, from: data) {
            self = .swept(namespace: row.sweep.namespace, at: row.sweep.at, keepingStaleWindow: row.sweep.keepingStaleWindow)
        } else if let selector = try? decoder.decode(InvalidationSelector.self, from: data) {
            self = .invalidated(selector)
        } else {
            return nil
        }
    }
}

extension SQLiteConnection {
    /// The journal keeps this many newest rows; a process that falls further behind clears
    /// its memory tiers instead of replaying.
    static let journalRetention: Int64 = 10_000

    /// One encoder for every journal row (making one per row costs more than the insert).
    private static let selectorEncoder = JSONEncoder()

    /// Appends `selector` to the journal, unless no other store instance holds a memory tier
    /// (nobody would read it), and trims old rows now and then. Call it inside the write
    /// transaction of the removal, so the check sees every registration committed before it.
    func appendInvalidation(_ selector: InvalidationSelector, removed: Int, origin: String, now: Int64) throws {
        try appendJournal(.invalidated(selector), removed: removed, origin: origin, now: now)
    }

    /// Appends `change` to the journal, as ``appendInvalidation(_:removed:origin:now:)`` does.
    func appendJournal(_ change: JournalChange, removed: Int, origin: String, now: Int64) throws {
        guard try scalar("SELECT EXISTS (SELECT 1 FROM memory_tiers WHERE origin != ?1)", origin) == 1 else { return }
        let json = try change.json(Self.selectorEncoder)
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
                (row.int64(0), row.text(1), JournalChange(json: row.text(2), decoder))
            }
        }.compactMap { seq, origin, change in change.map { JournalRecord(seq: seq, origin: origin, change: $0) } }
    }
}

extension SQLiteConnection {
    /// Registers the store instance `origin` as holding memory copies, so others journal
    /// their invalidations for it.
    func registerMemoryTier(origin: String, pid: Int32, host: String, now: Int64) throws {
        try run(
            "INSERT OR REPLACE INTO memory_tiers (origin, pid, host, since) VALUES (?1, ?2, ?3, ?4)",
            origin, Int64(pid), host, now)
    }

    /// Removes the registration of `origin` (the instance closed).
    func unregisterMemoryTier(origin: String) throws {
        try run("DELETE FROM memory_tiers WHERE origin = ?1", origin)
    }

    /// Removes the registrations of processes on `host` that no longer run; returns how many.
    func deleteMemoryTiersOfDeadProcesses(host: String) throws -> Int {
        let pids = try withStatement("SELECT DISTINCT pid FROM memory_tiers WHERE host = ?1") { statement in
            statement.bind(host)
            return try statement.rows { Int32(truncatingIfNeeded: $0.int64(0)) }
        }
        var removed = 0
        for pid in pids where kill(pid, 0) == -1 && errno == ESRCH {
            removed += try run("DELETE FROM memory_tiers WHERE host = ?1 AND pid = ?2", host, Int64(pid))
        }
        return removed
    }
}

/// The write journal (see ``Schema/entryWrites``).
extension SQLiteConnection {
    /// Makes this connection journal every entry it writes (an insert, or an update of its
    /// `created_at`, which every set moves) while a store instance other than `origin` holds a
    /// memory tier: a temporary trigger, checked inside the write's own transaction, so no
    /// write a registered instance needs is missed (see ``Schema/memoryTierRegistry``). The
    /// origin sits in a temporary table, never in the SQL text; the retention, a constant of
    /// the code, is written into it because a trigger takes no parameters. Every 1,000th row
    /// trims rows older than ``journalRetention``.
    func journalEntryWrites(origin: String) throws {
        let retention = Self.journalRetention
        let whenOthersCopy =
            "WHEN EXISTS (SELECT 1 FROM main.memory_tiers WHERE origin NOT IN (SELECT origin FROM temp.store_origin))"
        let body = """
            BEGIN
                INSERT INTO entry_writes (namespace_id, key, written_at) VALUES (new.namespace_id, new.key, new.created_at);
                DELETE FROM entry_writes
                WHERE seq <= CASE WHEN last_insert_rowid() % 1000 = 0 THEN last_insert_rowid() - \(retention) ELSE 0 END;
            END;
            """
        try execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS store_origin (origin TEXT NOT NULL);
            DELETE FROM temp.store_origin;
            DROP TRIGGER IF EXISTS temp.entries_journal_insert;
            DROP TRIGGER IF EXISTS temp.entries_journal_update;
            CREATE TEMP TRIGGER entries_journal_insert AFTER INSERT ON main.entries \(whenOthersCopy) \(body)
            CREATE TEMP TRIGGER entries_journal_update AFTER UPDATE OF created_at ON main.entries \(whenOthersCopy) \(body)
            """)
        try run("INSERT INTO temp.store_origin (origin) VALUES (?1)", origin)
    }

    /// The newest write-journal sequence number (0 when empty).
    func latestEntryWrite() throws -> Int64 {
        try scalar("SELECT coalesce(max(seq), 0) FROM entry_writes") ?? 0
    }

    /// The oldest write-journal sequence number kept (0 when empty).
    func oldestEntryWrite() throws -> Int64 {
        try scalar("SELECT coalesce(min(seq), 0) FROM entry_writes") ?? 0
    }

    /// Write-journal rows after `seq`, oldest first: the entry's namespace and key, and when
    /// the value was set.
    func entryWrites(after seq: Int64) throws -> [(seq: Int64, namespaceID: Int64, key: String, writtenAt: Int64)] {
        try withStatement("SELECT seq, namespace_id, key, written_at FROM entry_writes WHERE seq > ?1 ORDER BY seq") {
            statement in
            statement.bind(seq)
            return try statement.rows { ($0.int64(0), $0.int64(1), $0.text(2), $0.int64(3)) }
        }
    }
}
