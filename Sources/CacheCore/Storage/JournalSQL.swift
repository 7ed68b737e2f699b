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
