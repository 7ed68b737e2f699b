/// Size-limit enforcement: expired entries go first, then the namespace's policy order
/// (least recently used, sampled in namespaces larger than ``SampledEviction/exactUpTo``; or
/// oldest written). It removes only what brings the totals back
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
        namespaceID: Int64, policy: NamespacePolicy, on connection: SQLiteConnection, pools: EvictionPools, now: Int64,
        limit: Int = .max
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
        var sampler = SampledEviction(fresh: now, pool: pools.take(namespaceID))
        var live: [Victim] = []
        if policy.eviction == .leastRecentlyUsed && totals.entries > SampledEviction.exactUpTo {
            live = try sample(
                namespaceID: namespaceID, with: &sampler, until: &excess, limit: limit - expired, on: connection
            ).map(Victim.init)
            pools.keep(sampler.pool, for: namespaceID)
        }
        for pass in SQLiteConnection.evictionPasses(policy.eviction) where excess.isOver && live.count < limit - expired {
            let remaining = limit - expired - live.count
            live += try connection.withEntries(namespaceID: namespaceID, listedBy: pass) { entries in
                try pick(from: entries, skipping: sampler, until: &excess, limit: remaining)
            }
        }
        try delete(live, on: connection)
        tally.add(evicted: live, in: namespaceID)
        return tally
    }

    /// Brings the whole store within store-wide limits: expired entries of every namespace
    /// first, then least recently used across namespaces (sampled over the whole table, or in
    /// a small store a merge of each namespace's entries by access time). Returns what it
    /// removed.
    @discardableResult
    static func enforceStore(
        maxEntries: Int?, maxBytes: Int?, on connection: SQLiteConnection, pools: EvictionPools, now: Int64,
        limit: Int = .max
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
        var sampler = SampledEviction(fresh: now, pool: pools.take(nil))
        var victims = [Int64: [Victim]]()
        if totals.entries > SampledEviction.exactUpTo {
            for candidate in try sample(namespaceID: nil, with: &sampler, until: &excess, limit: budget, on: connection) {
                victims[candidate.namespaceID, default: []].append(Victim(candidate))
            }
            pools.keep(sampler.pool, for: nil)
        }
        let picked = victims.values.reduce(0) { $0 + $1.count }
        if excess.isOver && picked < budget {
            let exact = try mergeByRecency(
                namespaces, skipping: sampler, until: &excess, limit: budget - picked, on: connection)
            victims.merge(exact) { $0 + $1 }
        }
        for (namespaceID, chosen) in victims {
            try delete(chosen, on: connection)
            tally.add(evicted: chosen, in: namespaceID)
        }
        return tally
    }

    /// Picks least-recently-used victims by sampling (see ``SampledEviction``) among the
    /// entries of `namespaceID`, or of every namespace when it is `nil`, until `excess` is
    /// gone, `limit` were picked or a round of draws finds no candidate.
    private static func sample(
        namespaceID: Int64?, with sampler: inout SampledEviction, until excess: inout Excess, limit: Int,
        on connection: SQLiteConnection
    ) throws -> [SampledEviction.Candidate] {
        guard let ids = try connection.entryIDRange() else { return [] }
        let draw = {
            try connection.randomEntry(in: ids, namespaceID: namespaceID, tries: SampledEviction.triesPerDraw)
                ?? connection.entry(atOrAfter: Int64.random(in: ids), namespaceID: namespaceID)
                ?? connection.entry(atOrAfter: 0, namespaceID: namespaceID)
        }
        let current = { (candidate: SampledEviction.Candidate) in
            try connection.evictionCandidate(id: candidate.id).flatMap {
                namespaceID == nil || $0.namespaceID == namespaceID ? $0 : nil
            }
        }
        var victims: [SampledEviction.Candidate] = []
        while excess.isOver, victims.count < limit, let victim = try sampler.next(draw: draw, current: current) {
            victims.append(victim)
            excess.remove(size: victim.size)
        }
        return victims
    }

    /// Least recently used first across `namespaces` in exact order: a merge of each
    /// namespace's entries by access time, skipping what `sampler` already took.
    private static func mergeByRecency(
        _ namespaces: [Int64], skipping sampler: SampledEviction, until excess: inout Excess, limit: Int,
        on connection: SQLiteConnection
    ) throws -> [Int64: [Victim]] {
        try connection.withEntriesByRecency(namespaceIDs: namespaces) { cursors in
            let next = { (index: Int) throws -> (victim: Victim, accessedAt: Int64)? in
                while let head = try cursors[index].next() {
                    if !sampler.took(head.victim.id) { return head }
                }
                return nil
            }
            var heads = try cursors.indices.map(next)
            var victims: [Int64: [Victim]] = [:]
            var picked = 0
            while excess.isOver && picked < limit {
                var best: (index: Int, victim: Victim, accessedAt: Int64)?
                for (index, head) in heads.enumerated() {
                    guard let head else { continue }
                    if best.map({ head.accessedAt < $0.accessedAt }) ?? true {
                        best = (index, head.victim, head.accessedAt)
                    }
                }
                guard let best else { break }
                victims[namespaces[best.index], default: []].append(best.victim)
                excess.remove(size: best.victim.size)
                picked += 1
                heads[best.index] = try next(best.index)
            }
            return victims
        }
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

    /// Takes entries from `entries`, but those `sampler` took, until `excess` is gone or
    /// `limit` were taken.
    private static func pick(
        from entries: RowCursor<Victim>, skipping sampler: SampledEviction = SampledEviction(fresh: 0),
        until excess: inout Excess, limit: Int
    ) throws -> [Victim] {
        var victims: [Victim] = []
        while excess.isOver, victims.count < limit, let victim = try entries.next() {
            guard !sampler.took(victim.id) else { continue }
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

extension Eviction.Victim {
    init(_ candidate: SampledEviction.Candidate) { self.init(id: candidate.id, size: candidate.size) }
}

extension EvictionTally {
    fileprivate mutating func add(evicted victims: [Eviction.Victim], in namespaceID: Int64) {
        guard !victims.isEmpty else { return }
        add(evicted: victims.count, bytes: victims.reduce(0) { $0 + $1.size }, in: namespaceID)
    }
}
