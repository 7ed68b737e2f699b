/// The SQL of maintenance and size reports (sweeps themselves use ``deleteExpired(namespaceID:now:keepingStaleWindow:limit:)``).
extension SQLiteConnection {
    /// How a WAL checkpoint ends.
    enum CheckpointMode {
        /// Copies what it can without waiting for readers or writers.
        case passive
        /// Waits (up to the busy timeout) for readers and writers, copies everything, and
        /// truncates the WAL to zero bytes.
        case truncate

        var sql: StaticString {
            switch self {
            case .passive: "PRAGMA wal_checkpoint(PASSIVE)"
            case .truncate: "PRAGMA wal_checkpoint(TRUNCATE)"
            }
        }
    }

    /// Runs a checkpoint; `busy` is true when it could not finish (readers or writers in the way).
    func checkpoint(_ mode: CheckpointMode) throws -> (busy: Bool, framesInLog: Int, framesCheckpointed: Int) {
        try withStatement(mode.sql) { statement in
            try statement.firstRow { ($0.int(0) != 0, $0.int(1), $0.int(2)) } ?? (true, 0, 0)
        }
    }

    /// The smallest and largest entry ids, or `nil` when there are no entries.
    func entryIDRange() throws -> ClosedRange<Int64>? {
        try withStatement("SELECT (SELECT min(id) FROM entries), (SELECT max(id) FROM entries)") { statement in
            try statement.firstRow { row -> ClosedRange<Int64>? in
                guard let low = row.optionalInt64(0), let high = row.optionalInt64(1), low <= high else { return nil }
                return low...high
            } ?? nil
        }
    }

    /// Among up to `count` entries from id `start` on: how many, and how many are past their
    /// stale window at `now`.
    func purgeableSample(from start: Int64, count: Int, now: Int64) throws -> (rows: Int, purgeable: Int) {
        try withStatement(
            """
            SELECT count(*), coalesce(sum(stale_until <= ?3), 0)
            FROM (SELECT stale_until FROM entries WHERE id >= ?1 ORDER BY id LIMIT ?2)
            """
        ) { statement in
            statement.bind(start, count, now)
            return try statement.firstRow { ($0.int(0), $0.int(1)) } ?? (0, 0)
        }
    }
}
