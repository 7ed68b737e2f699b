/// Size-limit enforcement: expired entries go first, then the namespace's policy order
/// (least recently used, or oldest written). It removes only what brings the totals back
/// within the limits — never everything.
///
/// Runs inside the caller's write transaction, after the access log was flushed so that
/// recency is current. `limit` caps the entries one call removes (maintenance calls it
/// again in a new transaction until nothing is over).
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

    /// An entry chosen for removal.
    fileprivate struct Victim {
        let id: Int64
        let size: Int
    }

    /// Brings one namespace within its policy's limits; returns what it removed.
    @discardableResult
    static func enforce(
        namespaceID: Int64, policy: NamespacePolicy, on connection: SQLiteConnection, now: Int64, limit: Int = .max
    ) throws -> EvictionTally {
        var tally = EvictionTally()
        guard policy.maxEntries != nil || policy.maxBytes != nil else { return tally }
        let totals = try connection.namespaceTotals(namespaceID: namespaceID)
        var excess = Excess(
            entries: totals.entries, bytes: totals.bytes, maxEntries: policy.maxEntries, maxBytes: policy.maxBytes)
        guard excess.isOver else { return tally }
        let expired = try evictExpired(namespaceID: namespaceID, until: &excess, on: connection, now: now, limit: limit)
        tally.add(expired: expired, in: namespaceID)
        guard excess.isOver, expired < limit else { return tally }
        let order: StaticString =
            switch policy.eviction {
            case .leastRecentlyUsed: "SELECT id, size FROM entries WHERE namespace_id = ?1 ORDER BY accessed_at, id"
            case .oldestCreated: "SELECT id, size FROM entries WHERE namespace_id = ?1 ORDER BY id"
            }
        let live = try connection.withStatement(order) { statement in
            statement.bind(namespaceID)
            return try pick(from: statement, until: &excess, limit: limit - expired)
        }
        try delete(live, on: connection)
        tally.add(evicted: live, in: namespaceID)
        return tally
    }

    /// Brings the whole store within store-wide limits: expired entries of every namespace
    /// first, then least recently used across namespaces (a merge of each namespace's
    /// recency index, so no full sort). Returns what it removed.
    @discardableResult
    static func enforceStore(
        maxEntries: Int?, maxBytes: Int?, on connection: SQLiteConnection, now: Int64, limit: Int = .max
    ) throws -> EvictionTally {
        var tally = EvictionTally()
        guard maxEntries != nil || maxBytes != nil else { return tally }
        let totals = try connection.withStatement(
            "SELECT coalesce(sum(entry_count), 0), coalesce(sum(total_bytes), 0) FROM namespaces"
        ) { try $0.firstRow { ($0.int(0), $0.int(1)) } ?? (0, 0) }
        var excess = Excess(entries: totals.0, bytes: totals.1, maxEntries: maxEntries, maxBytes: maxBytes)
        guard excess.isOver else { return tally }
        let namespaces = try connection.namespaceIDs()
        var budget = limit
        for namespaceID in namespaces where excess.isOver && budget > 0 {
            let expired = try evictExpired(
                namespaceID: namespaceID, until: &excess, on: connection, now: now, limit: budget)
            tally.add(expired: expired, in: namespaceID)
            budget -= expired
        }
        guard excess.isOver, budget > 0 else { return tally }
        let cursors = try namespaces.map { namespaceID in
            let statement = try connection.prepare(
                "SELECT id, size, accessed_at FROM entries WHERE namespace_id = ?1 ORDER BY accessed_at, id")
            statement.bind(namespaceID)
            return statement
        }
        var heads = try cursors.map { try $0.step() }
        var victims: [Int: [Victim]] = [:]
        var picked = 0
        while excess.isOver && picked < budget {
            var best: Int?
            for index in cursors.indices where heads[index] {
                if best.map({ cursors[index].int64(2) < cursors[$0].int64(2) }) ?? true { best = index }
            }
            guard let best else { break }
            victims[best, default: []].append(Victim(id: cursors[best].int64(0), size: cursors[best].int(1)))
            excess.remove(size: cursors[best].int(1))
            picked += 1
            heads[best] = try cursors[best].step()
        }
        for cursor in cursors { cursor.reset() }
        for (index, chosen) in victims {
            try delete(chosen, on: connection)
            tally.add(evicted: chosen, in: namespaces[index])
        }
        return tally
    }

    /// Deletes the namespace's expired entries, soonest expired first, until `excess` is
    /// gone or `limit` were deleted; returns how many.
    private static func evictExpired(
        namespaceID: Int64, until excess: inout Excess, on connection: SQLiteConnection, now: Int64, limit: Int
    ) throws -> Int {
        let victims = try connection.withStatement(
            "SELECT id, size FROM entries WHERE namespace_id = ?1 AND expires_at <= ?2 ORDER BY expires_at"
        ) { statement in
            statement.bind(namespaceID, now)
            return try pick(from: statement, until: &excess, limit: limit)
        }
        try delete(victims, on: connection)
        return victims.count
    }

    private static func pick(from statement: SQLiteStatement, until excess: inout Excess, limit: Int) throws
        -> [Victim]
    {
        var victims: [Victim] = []
        while excess.isOver, victims.count < limit, try statement.step() {
            victims.append(Victim(id: statement.int64(0), size: statement.int(1)))
            excess.remove(size: statement.int(1))
        }
        return victims
    }

    private static func delete(_ victims: [Victim], on connection: SQLiteConnection) throws {
        guard !victims.isEmpty else { return }
        try connection.fillDoomed(ids: victims.map(\.id))
        try connection.deleteDoomed()
    }
}

extension EvictionTally {
    fileprivate mutating func add(evicted victims: [Eviction.Victim], in namespaceID: Int64) {
        guard !victims.isEmpty else { return }
        add(evicted: victims.count, bytes: victims.reduce(0) { $0 + $1.size }, in: namespaceID)
    }
}
