import CacheCore

/// Where the ids of a prefix's store actions and key deletions come from: one counter,
/// `auditseq` (``RedisKeys/auditSequence``), for both logs, which are listed together and
/// undone by id. Key deletions counted in a counter of their own before
/// (``KeyTrashKeys/sequence``), and their records stay for the retention: every id is above
/// that counter too, so no id of either log is handed out twice.
struct AuditSequence {
    let servers: RedisServers
    let keys: RedisKeys

    /// The next id.
    func next() throws -> Int64 {
        let counter = keys.auditSequence
        let older = KeyTrashKeys(prefix: keys.prefix).sequence
        return try RedisStore.mapping(servers.description) {
            let floor = try servers.withConnection(forKey: older) { try $0.command(["GET", RedisArgument(older)]) }
                .string.flatMap { Int64($0) } ?? 0
            let id = try servers.withConnection(forKey: counter) { try $0.command(["INCR", RedisArgument(counter)]) }
                .integer ?? 0
            guard id <= floor else { return id }
            let step = floor.subtractingClamped(id).addingClamped(1)
            return try servers.withConnection(forKey: counter) {
                try $0.command(["INCRBY", RedisArgument(counter), RedisArgument(step)])
            }.integer ?? 0
        }
    }
}
