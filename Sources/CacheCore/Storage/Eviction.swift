/// Size-limit enforcement: expired entries go first, then the namespace's policy order
/// (least recently used, or oldest written). It removes only what brings the totals back
/// within the limits — never everything.
///
/// Runs inside the caller's write transaction, after the access log was flushed so that
/// recency is current.
enum Eviction {
    /// How far over the limits a namespace or the store is.
    struct Excess {
        var entries: Int
        var bytes: Int

        init(entries: Int, bytes: Int, maxEntries: Int?, maxBytes: Int?) {
            self.entries = maxEntries.map { entries - $0 } ?? 0
            self.bytes = maxBytes.map { bytes - $0 } ?? 0
        }

        var isOver: Bool { entries > 0 || bytes > 0 }

        mutating func remove(size: Int) {
            entries -= 1
            bytes -= size
        }
    }

    /// Brings one namespace within its policy's limits; returns how many entries it removed.
    @discardableResult
    static func enforce(namespaceID: Int64, policy: NamespacePolicy, on connection: SQLiteConnection, now: Int64) throws
        -> Int
    {
        guard policy.maxEntries != nil || policy.maxBytes != nil else { return 0 }
        let totals = try connection.namespaceTotals(namespaceID: namespaceID)
        var excess = Excess(
            entries: totals.entries, bytes: totals.bytes, maxEntries: policy.maxEntries, maxBytes: policy.maxBytes)
        guard excess.isOver else { return 0 }
        let expired = try evictExpired(namespaceID: namespaceID, until: &excess, on: connection, now: now)
        guard excess.isOver else { return expired }
        let order: StaticString =
            switch policy.eviction {
            case .leastRecentlyUsed: "SELECT id, size FROM entries WHERE namespace_id = ?1 ORDER BY accessed_at, id"
            case .oldestCreated: "SELECT id, size FROM entries WHERE namespace_id = ?1 ORDER BY id"
            }
        let live = try connection.withStatement(order) { statement in
            statement.bind(namespaceID)
            return try pick(from: statement, until: &excess)
        }
        try delete(live, on: connection)
        return expired + live.count
    }

    /// Brings the whole store within store-wide limits: expired entries of every namespace
    /// first, then least recently used across namespaces (a merge of each namespace's
    /// recency index, so no full sort).
    @discardableResult
    static func enforceStore(maxEntries: Int?, maxBytes: Int?, on connection: SQLiteConnection, now: Int64) throws
        -> Int
    {
        guard maxEntries != nil || maxBytes != nil else { return 0 }
        let totals = try connection.withStatement(
            "SELECT coalesce(sum(entry_count), 0), coalesce(sum(total_bytes), 0) FROM namespaces"
        ) { try $0.firstRow { ($0.int(0), $0.int(1)) } ?? (0, 0) }
        var excess = Excess(entries: totals.0, bytes: totals.1, maxEntries: maxEntries, maxBytes: maxBytes)
        guard excess.isOver else { return 0 }
        let namespaces = try connection.namespaceIDs()
        var removed = 0
        for namespaceID in namespaces where excess.isOver {
            removed += try evictExpired(namespaceID: namespaceID, until: &excess, on: connection, now: now)
        }
        guard excess.isOver else { return removed }
        let cursors = try namespaces.map { namespaceID in
            let statement = try connection.prepare(
                "SELECT id, size, accessed_at FROM entries WHERE namespace_id = ?1 ORDER BY accessed_at, id")
            statement.bind(namespaceID)
            return statement
        }
        var heads = try cursors.map { try $0.step() }
        var victims: [Int64] = []
        while excess.isOver {
            var best: Int?
            for index in cursors.indices where heads[index] {
                if best.map({ cursors[index].int64(2) < cursors[$0].int64(2) }) ?? true { best = index }
            }
            guard let best else { break }
            victims.append(cursors[best].int64(0))
            excess.remove(size: cursors[best].int(1))
            heads[best] = try cursors[best].step()
        }
        for cursor in cursors { cursor.reset() }
        try delete(victims, on: connection)
        return removed + victims.count
    }

    /// Deletes the namespace's expired entries, soonest expired first, until `excess` is gone.
    private static func evictExpired(
        namespaceID: Int64, until excess: inout Excess, on connection: SQLiteConnection, now: Int64
    ) throws -> Int {
        let victims = try connection.withStatement(
            "SELECT id, size FROM entries WHERE namespace_id = ?1 AND expires_at <= ?2 ORDER BY expires_at"
        ) { statement in
            statement.bind(namespaceID, now)
            return try pick(from: statement, until: &excess)
        }
        try delete(victims, on: connection)
        return victims.count
    }

    private static func pick(from statement: SQLiteStatement, until excess: inout Excess) throws -> [Int64] {
        var ids: [Int64] = []
        while excess.isOver, try statement.step() {
            ids.append(statement.int64(0))
            excess.remove(size: statement.int(1))
        }
        return ids
    }

    private static func delete(_ ids: [Int64], on connection: SQLiteConnection) throws {
        for id in ids { try connection.run("DELETE FROM entries WHERE id = ?1", id) }
    }
}
