/// Invalidation: by key, key set, prefix, tag, namespace or everything, with dependency rules
/// and domain events, journaled so other processes drop their memory copies.
extension CacheStore {
    /// Removes what `selector` selects, and what the dependency rules add, from the file and
    /// from this process's memory. Other processes drop their memory copies within their
    /// ``StoreOptions/coherenceInterval``. Bulk removals run in batches sized to take about
    /// 100 ms each.
    @discardableResult
    public func invalidate(_ selector: InvalidationSelector) throws -> InvalidationResult {
        try invalidate([selector])
    }

    /// Removes what each selector selects (and what the rules add); see ``invalidate(_:)-(InvalidationSelector)``.
    @discardableResult
    public func invalidate(_ selectors: [InvalidationSelector]) throws -> InvalidationResult {
        try invalidate(selectors, countedAs: .invalidations)
    }

    /// ``invalidate(_:)-([InvalidationSelector])`` counting what each named namespace lost as
    /// `counter` (what a rule adds is always an invalidation).
    package func invalidate(_ selectors: [InvalidationSelector], countedAs counter: RemovalCounter) throws
        -> InvalidationResult
    {
        guard !isReadOnly else { throw CacheError.readOnly(path: path) }
        return try invalidationRules.apply(selectors, countedAs: counter, in: services.statistics, by: apply)
    }

    /// Runs the domain event `name` declared in ``StoreOptions/invalidationRules`` with its
    /// parameters, e.g. `invalidate(event: "guestCreated", parameters: ["tenant": "acme"])`.
    @discardableResult
    public func invalidate(event name: String, parameters: [String: String] = [:]) throws -> InvalidationResult {
        try invalidate(try invalidationRules.selectors(forEvent: name, parameters: parameters))
    }

    /// Removes `selector`'s entries from the file, then from memory (after the file, so a
    /// concurrent read cannot copy a removed row back), and journals it. Returns the entries
    /// removed from the file, plus those of memory-only namespaces.
    private func apply(_ selector: InvalidationSelector) throws -> Int {
        let now = now()
        let fileRemoved: Int
        switch selector {
        case .key(let namespace, let key):
            fileRemoved = try removeKeys([key], in: namespace, journaling: selector, now: now)
        case .keys(let namespace, let keys):
            fileRemoved = try removeKeys(keys, in: namespace, journaling: selector, now: now)
        case .namespace, .all:
            fileRemoved = try removeNamespaces(selector, now: now)
        case .prefix, .tag:
            fileRemoved = try removeSelected(selector, now: now)
        }
        var memoryRemoved = 0
        for runtime in allRuntimes {
            let dropped = runtime.drop(selector)
            if runtime.record.policy.tiers == .memory { memoryRemoved += dropped }
        }
        return fileRemoved + memoryRemoved
    }

    /// Deletes `keys` and journals `selector` with the total in the last transaction. A few
    /// keys (an app's `remove`) are one plain write transaction, like a set: a batch's
    /// bookkeeping (its checkpoint on another thread) would cost several times the delete.
    /// More go in batches sized by ``deleter`` (like a prefix's or a tag's); on a full disk a
    /// batch that does not fit is tried again smaller, down to one key.
    private func removeKeys(
        _ keys: [String], in namespace: String, journaling selector: InvalidationSelector, now: Int64
    ) throws -> Int {
        func delete(_ batch: ArraySlice<String>, removedBefore: Int, on connection: SQLiteConnection) throws -> Int {
            var count = 0
            for key in batch where try connection.deleteEntry(namespace: namespace, key: key) { count += 1 }
            if batch.endIndex == keys.count {
                try connection.appendInvalidation(selector, removed: removedBefore + count, origin: origin, now: now)
            }
            return count
        }
        if keys.count <= Self.keysInOneWrite {
            return try database.write(usingReserve: true) { connection in
                try connection.writeTransaction { try delete(keys[...], removedBefore: 0, on: connection) }
            }
        }
        var (removed, next) = (0, 0)
        try deleter.run { connection, size in
            let batch = keys[next..<min(next + size, keys.count)]
            let count = try delete(batch, removedBefore: removed, on: connection)
            return ((count, batch.count), batch.count, batch.endIndex == keys.count)
        } committed: { (deleted: Int, taken: Int) in
            removed += deleted
            next += taken
            return true
        }
        return removed
    }

    /// Empties whole namespaces at once (they move out of sight in one transaction, journaled),
    /// then deletes what they held in batches and gives the space back (see ``giveSpaceBack()``).
    private func removeNamespaces(_ selector: InvalidationSelector, now: Int64) throws -> Int {
        let target: AdminTarget = .invalidate(selector)
        let (removed, retired) = try database.write(usingReserve: true) { connection in
            try connection.writeTransaction {
                var removed = 0
                var retired: [Int64] = []
                for namespace in try admin.wholeNamespaces(of: target, in: connection) ?? [] {
                    removed += try connection.partitionNamespace(id: namespace.id, auditID: nil, now: now).entries
                    retired.append(namespace.id)
                }
                try connection.appendInvalidation(selector, removed: removed, origin: origin, now: now)
                return (removed, retired)
            }
        }
        for partition in retired {
            _ = try deleter.runUntilShort { try $0.deletePartitionBatch(partition, limit: $1) }
        }
        if removed > 0 { giveSpaceBack() }
        return removed
    }

    /// Deletes what a prefix or tag selects in batches (see ``deleter``), journals it, and gives
    /// the space back (see ``giveSpaceBack()``). On a full disk a batch that does not fit is
    /// tried again smaller, down to one entry.
    private func removeSelected(_ selector: InvalidationSelector, now: Int64) throws -> Int {
        let ids = try database.read { connection in
            try EntryScope.of(.invalidate(selector), now: now, in: connection).flatMap {
                try connection.scopeIDs($0, start: (.max, .max))
            }
        }
        var (removed, next) = (0, 0)
        if !ids.isEmpty {
            try deleter.run { connection, size in
                let batch = ids[next..<min(next + size, ids.count)]
                try connection.fillDoomed(ids: batch, writtenBy: .max)
                return ((try connection.deleteDoomed().entries, batch.count), batch.count, batch.endIndex == ids.count)
            } committed: { (deleted: Int, taken: Int) in
                removed += deleted
                next += taken
                return true
            }
        }
        try database.write(usingReserve: true) {
            try $0.appendInvalidation(selector, removed: removed, origin: origin, now: now)
        }
        if removed > 0 { giveSpaceBack() }
        return removed
    }
}
