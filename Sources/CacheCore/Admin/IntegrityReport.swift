/// How thoroughly ``Admin/check(_:)`` has SQLite examine the file's structure.
public enum IntegrityCheckDepth: String, Sendable, Hashable, Codable, CaseIterable {
    /// `PRAGMA quick_check`: pages, records and constraints, without comparing indexes with
    /// their tables (much faster on a large file).
    case quick
    /// `PRAGMA integrity_check`: everything `quick` does, and every index against its table.
    case full
}

/// A namespace whose recorded counters differ from its entries.
public struct CounterMismatch: Sendable, Hashable, Codable {
    /// The namespace.
    public let namespace: String
    /// `namespaces.entry_count`.
    public let recordedEntries: Int
    /// The entries the namespace has.
    public let actualEntries: Int
    /// `namespaces.total_bytes`.
    public let recordedBytes: Int64
    /// The sum of those entries' sizes.
    public let actualBytes: Int64
}

/// What ``Admin/check(_:)`` found: SQLite's own verdict on the file, and whether the
/// counters and the tag index CacheDeck derives from the entries still agree with them.
public struct IntegrityReport: Sendable, Hashable, Codable {
    /// The structural check that ran.
    public let depth: IntegrityCheckDepth
    /// When the check ran (milliseconds since the epoch).
    public let checkedAt: Int64
    /// SQLite's findings (at most 100), empty when it answered `ok`. ``Admin/repair()``
    /// cannot fix these.
    public let sqliteProblems: [String]
    /// Namespaces whose `entry_count` or `total_bytes` differ from their entries; repairable.
    public let counterMismatches: [CounterMismatch]
    /// `(tag, entry)` pairs an entry's `tags` list has but `entry_tags` lacks; repairable.
    public let missingTagRows: Int
    /// `entry_tags` rows no entry's `tags` list accounts for; repairable.
    public let extraTagRows: Int
    /// Entries whose `tags` column is not valid JSON; not repairable.
    public let malformedTagLists: Int
    /// Entries whose namespace row is gone; not repairable.
    public let orphanedEntries: Int
    /// Rows (at most 100) holding numbers no CacheDeck process writes — times outside
    /// 1970–9999, negative or impossibly large sizes and counters (past 2^53) — each as
    /// `table id: column value, …`. Readers saturate on them; not repairable.
    public let outOfRangeRows: [String]
    /// Whether nothing at all was found.
    public let isHealthy: Bool

    init(
        depth: IntegrityCheckDepth, checkedAt: Int64, sqliteProblems: [String], counterMismatches: [CounterMismatch],
        missingTagRows: Int, extraTagRows: Int, malformedTagLists: Int, orphanedEntries: Int,
        outOfRangeRows: [String] = []
    ) {
        self.depth = depth
        self.checkedAt = checkedAt
        self.sqliteProblems = sqliteProblems
        self.counterMismatches = counterMismatches
        self.missingTagRows = missingTagRows
        self.extraTagRows = extraTagRows
        self.malformedTagLists = malformedTagLists
        self.orphanedEntries = orphanedEntries
        self.outOfRangeRows = outOfRangeRows
        isHealthy =
            sqliteProblems.isEmpty && counterMismatches.isEmpty && missingTagRows == 0 && extraTagRows == 0
            && malformedTagLists == 0 && orphanedEntries == 0 && outOfRangeRows.isEmpty
    }

    /// Whether ``Admin/repair()`` has anything to fix: counters or tag rows.
    public var isRepairable: Bool { !counterMismatches.isEmpty || missingTagRows > 0 || extraTagRows > 0 }
}

/// What ``Admin/repair()`` rewrote.
public struct IntegrityRepair: Sendable, Hashable, Codable {
    /// Namespaces whose counters were recounted from their entries.
    public let countersRewritten: Int
    /// `entry_tags` rows added for tags the entries list.
    public let tagRowsAdded: Int
    /// `entry_tags` rows removed because no entry lists them.
    public let tagRowsRemoved: Int
}
