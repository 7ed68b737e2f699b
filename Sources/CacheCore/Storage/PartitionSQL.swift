/// The SQL of namespaces' live rows and of partitions (see ``Schema/partitions``): creating a
/// namespace, clearing or retiring it in one step, moving chosen entries into a trash
/// partition and back, and deleting partitions in batches.
extension SQLiteConnection {
    /// Whether `id` is still the live row of namespace `name`.
    func isLiveNamespace(id: Int64, name: String) throws -> Bool {
        try scalar("SELECT EXISTS (SELECT 1 FROM namespaces WHERE id = ?1 AND name = ?2)", id, name) == 1
    }

    /// An id no namespace or partition has: ids are never taken twice while a process may
    /// still hold the old one for the same name.
    private func nextNamespaceID() throws -> Int64 {
        try scalar(
            """
            SELECT max((SELECT coalesce(max(id), 0) FROM namespaces), (SELECT coalesce(max(id), 0) FROM partitions)) + 1
            """) ?? 1
    }

    /// Creates the live row of namespace `name`; returns its id.
    func insertNamespace(name: String, version: String, policyJSON: String, now: Int64) throws -> Int64 {
        let id = try nextNamespaceID()
        try run(
            "INSERT INTO namespaces (id, name, version, policy, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
            id, name, version, policyJSON, now)
        return id
    }

    /// Moves namespace row `id` (with its entries and counters) into a whole partition that
    /// belongs to action `auditID` (`nil`: retired, to be deleted by maintenance) and gives
    /// the name a new, empty live row with `version` and `policyJSON` (the old ones when
    /// `nil`). Returns the new row's id and what the partition holds. Run it in a write
    /// transaction.
    func partitionNamespace(
        id: Int64, auditID: Int64?, version: String? = nil, policyJSON: String? = nil, now: Int64
    ) throws -> (newID: Int64, entries: Int, bytes: Int) {
        let newID = try nextNamespaceID()
        try run(
            """
            INSERT INTO partitions (id, audit_id, whole, entry_count, total_bytes, retired_at, name, version, policy, generation, created_at, updated_at)
            SELECT id, ?2, 1, entry_count, total_bytes, ?3, name, version, policy, generation, created_at, updated_at FROM namespaces WHERE id = ?1
            """,
            id, auditID, now)
        try run("DELETE FROM namespaces WHERE id = ?1", id)
        let (entries, bytes) = try partitionTotals(id)
        try run(
            """
            INSERT INTO namespaces (id, name, version, policy, generation, created_at, updated_at)
            SELECT ?2, name, coalesce(?4, version), coalesce(?5, policy), generation + 1, created_at, ?3
            FROM partitions WHERE id = ?1
            """,
            id, newID, now, version, policyJSON)
        return (newID, entries, bytes)
    }

    /// The entries partition `id` holds and their bytes.
    private func partitionTotals(_ id: Int64) throws -> (entries: Int, bytes: Int) {
        try withStatement("SELECT entry_count, total_bytes FROM partitions WHERE id = ?1") { statement in
            statement.bind(id)
            return try statement.firstRow { ($0.int(0), $0.int(1)) }
        } ?? (0, 0)
    }

    /// Creates an empty trash partition for entries action `auditID` takes out of namespace
    /// `name`; returns its id.
    func insertTrashPartition(name: String, auditID: Int64, now: Int64) throws -> Int64 {
        let id = try nextNamespaceID()
        try run(
            """
            INSERT INTO partitions (id, name, audit_id, whole, created_at, updated_at, retired_at)
            VALUES (?1, ?2, ?3, 0, ?4, ?4, ?4)
            """,
            id, name, auditID, now)
        return id
    }

    /// Moves the entries listed in `temp.doomed` that namespace or partition `from` holds into
    /// namespace or partition `to`, in place (values are not copied, ids are kept), and moves
    /// their counts with them. `totals` are those entries' count and bytes, which the caller
    /// takes in a pass it makes anyway.
    func moveDoomed(from: Int64, to: Int64, totals: (entries: Int, bytes: Int)) throws {
        let (count, bytes) = totals
        guard count > 0 else { return }
        // `+namespace_id`: drive the update from the doomed ids, never from a namespace index
        // (without statistics SQLite would walk the whole namespace for each batch).
        try run("UPDATE entries SET namespace_id = ?2 WHERE id IN temp.doomed AND +namespace_id = ?1", from, to)
        try addToCounters(of: from, entries: -count, bytes: -bytes)
        try addToCounters(of: to, entries: count, bytes: bytes)
    }

    /// The partitions action `auditID` filled: id, namespace name and whether it holds a
    /// whole namespace.
    func partitions(auditID: Int64) throws -> [(id: Int64, name: String, whole: Bool)] {
        try withStatement("SELECT id, name, whole FROM partitions WHERE audit_id = ?1 ORDER BY id") { statement in
            statement.bind(auditID)
            return try statement.rows { ($0.int64(0), $0.text(1), $0.int64(2) != 0) }
        }
    }

    /// Puts whole partition `id` back as namespace `name`'s live row. The entries the live row
    /// holds now (written since the clear) are moved into it, replacing the partition's entry
    /// of the same key; the live row's version and policy are kept. Costs time in proportion
    /// to those newer entries only. Returns the entries and bytes that came back. Run it in a
    /// write transaction.
    func restoreWholePartition(_ id: Int64, name: String, now: Int64) throws -> (entries: Int, bytes: Int) {
        let live = try namespaceRow(name: name)
        if let live {
            try fillDoomed(
                "SELECT p.id FROM entries p WHERE p.namespace_id = ?1 AND p.key IN (SELECT key FROM entries WHERE namespace_id = ?2)",
                id, live.id)
            try deleteDoomed()
            try run("UPDATE entries SET namespace_id = ?1 WHERE namespace_id = ?2", id, live.id)
        }
        let (entries, bytes) = try partitionTotals(id)
        // The live row's figures and settings go to the restored row, which takes its name.
        try run(
            """
            UPDATE partitions SET
                entry_count = ?3 + coalesce((SELECT entry_count FROM namespaces WHERE id = ?2), 0),
                total_bytes = ?4 + coalesce((SELECT total_bytes FROM namespaces WHERE id = ?2), 0),
                version = coalesce((SELECT version FROM namespaces WHERE id = ?2), version),
                policy = coalesce((SELECT policy FROM namespaces WHERE id = ?2), policy),
                generation = max(generation, coalesce((SELECT generation FROM namespaces WHERE id = ?2), 0)) + 1,
                updated_at = ?5
            WHERE id = ?1
            """,
            id, live?.id, entries, bytes, now)
        if let live { try run("DELETE FROM namespaces WHERE id = ?1", live.id) }
        try run(
            """
            INSERT INTO namespaces (id, entry_count, total_bytes, name, version, policy, generation, created_at, updated_at)
            SELECT id, entry_count, total_bytes, name, version, policy, generation, created_at, updated_at
            FROM partitions WHERE id = ?1
            """,
            id)
        try deletePartitionRow(id)
        return (entries, bytes)
    }

    /// Moves up to `limit` entries of trash partition `id` back into namespace `namespaceID`;
    /// an entry whose key was written again since stays out (the new value wins) and is
    /// deleted. Returns the entries taken from the partition, those restored and their bytes.
    func restoreTrashBatch(partition id: Int64, into namespaceID: Int64, limit: Int) throws -> (
        taken: Int, restored: Int, bytes: Int
    ) {
        let taken = try fillDoomed("SELECT id FROM entries WHERE namespace_id = ?1 LIMIT ?2", id, limit)
        let isReplaced = "EXISTS (SELECT 1 FROM entries n WHERE n.namespace_id = ?1 AND n.key = p.key)"
        // One pass over the batch: its entries and bytes, and those of the replaced ones.
        let totals = try withDynamicStatement(
            """
            SELECT count(*), coalesce(sum(size), 0), coalesce(sum(replaced), 0), coalesce(sum(replaced * size), 0)
            FROM (SELECT p.size, \(isReplaced) AS replaced FROM temp.doomed d CROSS JOIN entries p ON p.id = d.id)
            """
        ) { statement in
            statement.bind(namespaceID)
            return try statement.firstRow { ($0.int(0), $0.int(1), $0.int(2), $0.int(3)) } ?? (0, 0, 0, 0)
        }
        let (entries, bytes, replaced, replacedBytes) = totals
        // The replaced rows are deleted here, not by ``deleteDoomed()``: `temp.doomed` holds
        // the whole batch (the rows to move back), and their counts came with the pass above.
        if replaced > 0 {
            try withDynamicStatement(
                "DELETE FROM entries WHERE id IN (SELECT p.id FROM temp.doomed d CROSS JOIN entries p ON p.id = d.id WHERE \(isReplaced))"
            ) { statement in
                statement.bind(namespaceID)
                _ = try statement.run()
            }
            try addToCounters(of: id, entries: -replaced, bytes: -replacedBytes)
        }
        let restored = (entries: entries - replaced, bytes: bytes - replacedBytes)
        try moveDoomed(from: id, to: namespaceID, totals: restored)
        return (taken, restored.entries, restored.bytes)
    }

    /// Deletes up to `limit` entries of partition `id`; when none is left, the partition row
    /// too. Returns how many entries it deleted.
    func deletePartitionBatch(_ id: Int64, limit: Int) throws -> Int {
        try fillDoomed("SELECT id FROM entries WHERE namespace_id = ?1 LIMIT ?2", id, limit)
        let deleted = try deleteDoomed().entries
        if deleted < limit { try deletePartitionRow(id) }
        return deleted
    }

    /// Deletes partition `id`'s row (its entries are gone or moved).
    func deletePartitionRow(_ id: Int64) throws {
        try run("DELETE FROM partitions WHERE id = ?1", id)
    }

    /// What every partition holds: entries and bytes (the trash and retired namespaces).
    func partitionsTotals() throws -> (entries: Int, bytes: Int) {
        try withStatement("SELECT coalesce(sum(entry_count), 0), coalesce(sum(total_bytes), 0) FROM partitions") {
            try $0.firstRow { ($0.int(0), $0.int(1)) }
        } ?? (0, 0)
    }

    /// Partitions to delete: retired ones, and trash of actions run before `cutoff`.
    func expiredPartitions(before cutoff: Int64) throws -> [Int64] {
        try withStatement(
            """
            SELECT p.id FROM partitions p LEFT JOIN audit a ON a.id = p.audit_id
            WHERE p.audit_id IS NULL OR a.id IS NULL OR a.at < ?1 ORDER BY p.id
            """
        ) { statement in
            statement.bind(cutoff)
            return try statement.rows { $0.int64(0) }
        }
    }
}
