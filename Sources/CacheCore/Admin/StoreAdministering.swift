/// Operator actions on a store, whatever keeps it: preview, run with progress and stop,
/// undo, and the audit log. ``Admin`` (a cache file) and `RedisAdmin` (CacheCoreRedis) (a Redis server)
/// implement it, so tools act on either through one path.
public protocol StoreAdministering: Sendable {
    /// What `target` would remove now. Changes nothing.
    func preview(_ target: AdminTarget) throws -> ActionImpact

    /// Runs `target`, audited as `origin`'s; `progress` hears how far it is after every batch
    /// and stops it by returning `false` (what it removed so far stays undoable).
    func run(_ target: AdminTarget, origin: ActionOrigin, progress: ((ActionProgress) -> Bool)?) throws
        -> ActionOutcome

    /// Undoes action `auditID`; returns how many entries came back.
    func restore(_ auditID: Int64, origin: ActionOrigin) throws -> Int

    /// The newest `limit` audit records, newest first.
    func auditLog(limit: Int) throws -> [AuditRecord]
    /// Audit record `id`, or `nil` when the log no longer has it.
    func auditRecord(_ id: Int64) throws -> AuditRecord?
}

extension Admin: StoreAdministering {}
