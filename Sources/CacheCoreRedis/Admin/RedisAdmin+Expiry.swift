import CacheCore
import Foundation

/// TTL actions (`AdminTarget/expiry(selector:change:)`) on Redis: the `changeExpiry` script
/// rewrites the selected entries' times batch by batch, keeping the old ones in the action's
/// expiry trash hash for the undo (docs/REDIS.md, "TTL actions").
extension RedisAdmin {
    /// Changes the expiry of what `selector` selects, batch by batch (each batch adds to the
    /// record's counts atomically); progress hears after every batch.
    func changeExpiry(_ selector: InvalidationSelector, _ change: ExpiryChange, state: inout RunState) throws {
        let keys = store.keys
        try forEachBatch(of: selector) { batch in
            let reply = try store.run(
                .changeExpiry,
                keys: [
                    keys.namespace(batch.namespace), keys.ledger(state.id, namespace: batch.namespace),
                    keys.expiryTrash(state.id, namespace: batch.namespace),
                ],
                arguments: [
                    RedisArgument(keys.entries(batch.namespace)), RedisArgument(keys.tags(batch.namespace)),
                    RedisArgument(store.now()), RedisArgument(retention), RedisArgument(batch.tag ?? ""),
                    RedisArgument(change.scriptKind), RedisArgument(change.milliseconds),
                    RedisArgument(RedisKeys.escape(batch.namespace) + ":"),
                ] + batch.keys.map { RedisArgument($0) })
            return try record(reply, of: batch.namespace, in: &state)
        }
    }

    /// Puts back the times TTL action `auditID` replaced in `namespace` (`nil`: a record
    /// from before ledgers, one hash for every namespace): an `HSCAN` of its trash hash, 1,000
    /// fields a call, unless an entry was written since; returns how many it put back.
    func restoreExpiry(_ auditID: Int64, namespace: String?, selector: InvalidationSelector) throws -> Int {
        let keys = store.keys
        let trash = keys.expiryTrash(auditID, namespace: namespace)
        var restored = 0
        try store.scanBatches(["HSCAN", trash], on: trash) { found in
            // HSCAN answers field, value, field, value…; a field is `<escaped ns>:<key>`.
            let fields = stride(from: 0, to: found.count, by: 2).map { found[$0] }
            let byNamespace = Dictionary(
                grouping: fields.compactMap { field -> (namespace: String, key: String)? in
                    guard let colon = field.firstIndex(of: ":") else { return nil }
                    return (String(field[..<colon]), String(field[field.index(after: colon)...]))
                }, by: \.namespace)
            for (escaped, entries) in byNamespace {
                let namespace = RedisKeys.unescape(escaped)
                let reply = try store.run(
                    .restoreExpiry, keys: [trash],
                    arguments: [
                        RedisArgument(keys.entries(namespace)), RedisArgument(keys.tags(namespace)),
                        RedisArgument(store.now()), RedisArgument(escaped + ":"),
                    ] + entries.map { RedisArgument($0.key) })
                restored += Int(reply.integer ?? 0)
            }
            return true
        }
        _ = try store.redis(trash) { try $0.command(["DEL", RedisArgument(trash)]) }
        for runtime in store.allRuntimes { runtime.drop(selector) }
        return restored
    }
}

extension ExpiryChange {
    /// The change as the `changeExpiry` script names it.
    var scriptKind: String {
        switch self {
        case .expireNow: "now"
        case .set(nil): "never"
        case .set: "set"
        case .extend: "extend"
        }
    }
}
