/// Format 3's trash rows in a file migrated to format 4, moved into trash partitions in
/// bounded batches after the short schema step (see ``Schema/partitions``).
///
/// The table `v3_trash` is the progress marker: it holds the rows still to move, and each
/// batch moves up to ``batchSize`` of them in one write transaction (inserted into their
/// action's partition and deleted from `v3_trash` together), so a kill between or inside
/// batches loses nothing and the next read-write open resumes. The batch that finds it empty
/// drops it with `v3_trash_names`. Other processes' reads and writes interleave between
/// batches; while rows remain, ``SQLiteConnection/auditRecords(limit:id:)`` counts them as
/// trash, so their actions still read as undoable.
enum Format3Trash {
    /// Rows moved per transaction.
    static let batchSize = 1000

    /// Whether the file still holds format 3's trash table.
    static func isPending(_ connection: SQLiteConnection) throws -> Bool {
        try connection.hasFormat3Trash()
    }

    /// Drops the tables when they hold nothing to move (a new file, or a format-3 file with
    /// an empty trash). Run it in the schema step's transaction.
    static func dropIfEmpty(_ connection: SQLiteConnection) throws {
        guard try isPending(connection), try connection.format3TrashIsEmpty() else { return }
        try connection.dropFormat3Trash()
    }

    /// Moves what is left, batch by batch; returns the rows moved and the batches it took
    /// (0 and 0 when nothing was pending). Not a ``BatchRunner``'s loop: it runs while the
    /// file is being opened, on the opening connection, before there is a ``Database`` (and
    /// its batches are fixed, each a resumable step of the migration).
    static func moveAll(_ connection: SQLiteConnection, now: () -> Int64) throws -> (rows: Int, batches: Int) {
        var total = (rows: 0, batches: 0)
        while let moved = try moveBatch(connection, limit: batchSize, now: now()) {
            total.rows += moved
            total.batches += 1
        }
        return total
    }

    /// Moves the next `limit` rows (in `(audit_id, entry_id)` order) into their actions'
    /// partitions in one transaction; returns how many, or `nil` once nothing is left (the
    /// tables are then dropped).
    static func moveBatch(_ connection: SQLiteConnection, limit: Int, now: Int64) throws -> Int? {
        try connection.writeTransaction {
            guard try isPending(connection) else { return nil }
            let taken = try connection.takeFormat3TrashBatch(limit: limit)
            guard taken > 0 else {
                try connection.dropFormat3Trash()
                return nil
            }
            for group in try connection.format3TrashBatchGroups() {
                let partition = try partitionID(for: group, on: connection, now: now)
                let added = try connection.insertFormat3TrashBatch(
                    auditID: group.auditID, name: group.name, into: partition)
                try connection.addToCounters(of: partition, entries: added.entries, bytes: added.bytes)
            }
            try connection.deleteFormat3TrashBatch()
            return taken
        }
    }

    /// The trash partition of action `group.auditID` for namespace `group.name`, created on
    /// first use with the action's time (or `now` when its audit row is gone).
    private static func partitionID(
        for group: (auditID: Int64, name: String), on connection: SQLiteConnection, now: Int64
    ) throws -> Int64 {
        if let existing = try connection.trashPartitionID(auditID: group.auditID, name: group.name) { return existing }
        let at = try connection.auditTime(id: group.auditID) ?? now
        return try connection.insertTrashPartition(name: group.name, auditID: group.auditID, now: at)
    }
}
