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
    struct Victim {
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
        var live: [Victim] = []
        for pass in SQLiteConnection.evictionPasses(policy.eviction) where excess.isOver {
            live += try connection.withEntries(namespaceID: namespaceID, listedBy: pass) { entries in
                try pick(from: entries, until: &excess, limit: limit - expired - live.count)
            }
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
        let totals = try connection.storeTotals()
        var excess = Excess(entries: totals.entries, bytes: totals.bytes, maxEntries: maxEntries, maxBytes: maxBytes)
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
        let victims = try connection.withEntriesByRecency(namespaceIDs: namespaces) { cursors in
            var heads = try cursors.map { try $0.next() }
            var victims: [Int: [Victim]] = [:]
            var picked = 0
            while excess.isOver && picked < budget {
                var best: (index: Int, victim: Victim, accessedAt: Int64)?
                for (index, head) in heads.enumerated() {
                    guard let head else { continue }
                    if best.map({ head.accessedAt < $0.accessedAt }) ?? true {
                        best = (index, head.victim, head.accessedAt)
                    }
                }
                guard let best else { break }
                victims[best.index, default: []].append(best.victim)
                excess.remove(size: best.victim.size)
                picked += 1
                heads[best.index] = try cursors[best.index].next()
            }
            return victims
        }
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
        let victims = try connection.withExpiredEntries(namespaceID: namespaceID, now: now) { entries in
            try pick(from: entries, until: &excess, limit: limit)
        }
        try delete(victims, on: connection)
        return victims.count
    }

    /// Takes entries from `entries` until `excess` is gone or `limit` were taken.
    private static func pick(from entries: RowCursor<Victim>, until excess: inout Excess, limit: Int) throws
        -> [Victim]
    {
        var victims: [Victim] = []
        while excess.isOver, victims.count < limit, let victim = try entries.next() {
            victims.append(victim)
            excess.remove(size: victim.size)
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
