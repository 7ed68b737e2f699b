import CacheCore

/// A database that holds a ``RedisStore`` beside other keys: the store's actions run on its
/// ``RedisAdmin``, key deletions (``AdminTarget/deleteKeys(_:)``) of the other keys on the
/// keyspace's ``RedisKeyspaceAdmin``; one audit log lists both, newest first (their ids come
/// from one sequence), and an undo goes to the log that holds the id.
package struct StoreAndKeysAdmin: StoreAdministering {
    let store: RedisAdmin
    let keys: RedisKeyspaceAdmin

    package init(store: RedisAdmin, keys: RedisKeyspaceAdmin) {
        self.store = store
        self.keys = keys
    }

    package func preview(_ target: AdminTarget) throws -> ActionImpact {
        try admin(for: target).preview(target)
    }

    package func run(_ target: AdminTarget, origin: ActionOrigin, progress: ((ActionProgress) -> Bool)?) throws
        -> ActionOutcome
    {
        try admin(for: target).run(target, origin: origin, progress: progress)
    }

    package func restore(_ auditID: Int64, origin: ActionOrigin) throws -> Int {
        try keys.auditRecord(auditID) != nil
            ? keys.restore(auditID, origin: origin) : store.restore(auditID, origin: origin)
    }

    package func auditLog(limit: Int) throws -> [AuditRecord] {
        let both = try keys.auditLog(limit: limit) + store.auditLog(limit: limit)
        return Array(both.sorted { ($0.at, $0.id) > ($1.at, $1.id) }.prefix(limit))
    }

    package func auditRecord(_ id: Int64) throws -> AuditRecord? {
        try keys.auditRecord(id) ?? store.auditRecord(id)
    }

    private func admin(for target: AdminTarget) -> any StoreAdministering {
        if case .deleteKeys = target { keys } else { store }
    }
}

extension RedisStore {
    /// The store's actions with the deletion of the database's other keys; only the store's
    /// where the keyspace's deletions refuse the prefix (`{` or `}` on a cluster).
    package var adminWithKeys: any StoreAdministering {
        guard let keys = try? RedisKeyspaceAdmin(servers: servers, prefix: prefix) else { return admin }
        return StoreAndKeysAdmin(store: admin, keys: keys)
    }
}
