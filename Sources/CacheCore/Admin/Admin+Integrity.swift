extension Admin {
    /// Checks the file: SQLite's structural check at `depth`, then whether each namespace's
    /// counters match its entries, `entry_tags` matches the entries' tag lists, and every
    /// entry has its namespace — all in one snapshot, so an app writing meanwhile causes no
    /// false alarm. Changes nothing; works on a read-only store.
    ///
    /// It reads every page (`full`) and every entry, so it takes seconds on a large file.
    public func check(_ depth: IntegrityCheckDepth = .full) throws -> IntegrityReport {
        let now = store.now()
        return try store.database.read { connection in
            do {
                return try connection.readTransaction {
                    IntegrityReport(
                        depth: depth, checkedAt: now, sqliteProblems: try connection.sqliteProblems(depth),
                        counterMismatches: try connection.counterMismatches(),
                        missingTagRows: try connection.missingTagRowCount(),
                        extraTagRows: try connection.extraTagRowCount(),
                        malformedTagLists: try connection.malformedTagListCount(),
                        orphanedEntries: try connection.orphanedEntryCount(),
                        outOfRangeRows: try connection.outOfRangeRows())
                }
            } catch let error as SQLiteError where error.isCorrupt {
                // The derived checks read every table: on damaged pages SQLite's own report
                // is what there is to say.
                let problems = try connection.sqliteProblems(depth)
                guard !problems.isEmpty else { throw error }
                return IntegrityReport(
                    depth: depth, checkedAt: now, sqliteProblems: problems, counterMismatches: [],
                    missingTagRows: 0, extraTagRows: 0, malformedTagLists: 0, orphanedEntries: 0)
            }
        }
    }

    /// Rewrites what ``check(_:)`` reports as repairable: recounts the counters of every
    /// namespace that disagrees with its entries (one transaction per namespace) and adds or
    /// removes `entry_tags` rows to match the entries' tag lists (1,000 per transaction).
    /// Entries are never changed. Recounting reads the entries through SQLite's b-trees, so
    /// repair only a file whose ``IntegrityReport/sqliteProblems`` are empty. Throws
    /// ``CacheError/readOnly(path:)`` on a read-only store.
    @discardableResult
    public func repair() throws -> IntegrityRepair {
        let mismatched = try store.database.read { try $0.counterMismatches().map(\.namespace) }
        var rewritten = 0
        for name in mismatched {
            if try store.database.write({ try $0.recountNamespace(named: name) }) { rewritten += 1 }
        }
        return IntegrityRepair(
            countersRewritten: rewritten,
            tagRowsAdded: try repairInBatches { try $0.insertMissingTagRows(limit: $1) },
            tagRowsRemoved: try repairInBatches { try $0.deleteExtraTagRows(limit: $1) })
    }

    /// Runs `batch` (with a row limit) in batches of 1,000 rows until it changes fewer;
    /// returns the total. Fixed, not sized by a ``BatchSizer``: each batch's query scans the
    /// entries' tag lists from the start (the removal's `EXCEPT` all of them), so a batch's
    /// time does not follow its row count, and shrinking slow batches would only add scans.
    private func repairInBatches(_ batch: (SQLiteConnection, Int) throws -> Int) throws -> Int {
        try BatchRunner(database: store.database, sizing: .fixed(1000))
            .runUntilShort(usingReserve: false, onDiskFull: { .fail }, batch: batch)
    }
}
