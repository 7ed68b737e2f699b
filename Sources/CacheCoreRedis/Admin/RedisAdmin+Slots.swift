import CacheCore

/// Actions and undos on a cluster walk a namespace's keys with `SCAN` on the node serving its
/// slot; while the slot is being moved (a reshard), its keys are split between two nodes and
/// such a walk would miss some. So each namespace's step runs only while its slot stays put.
extension RedisAdmin {
    /// The node serving namespace `name`'s slot (`nil` on one server), as that node's own
    /// `CLUSTER NODES` line says; throws when the slot is being moved or not served there.
    func slotHome(of name: String) throws -> String? {
        guard store.keys.isClustered else { return nil }
        let hash = store.keys.namespace(name)
        let slot = ClusterSlot.of(Array(hash.utf8))
        let listing = try store.redis(hash) { try $0.command(["CLUSTER", "NODES"]).string } ?? ""
        let line = listing.split(separator: "\n").prefix(RedisClusterNode.maxNodes).map { $0.split(separator: " ") }
            .first { $0.count >= 8 && $0[2].split(separator: ",").contains("myself") }
        let ranges = line?.dropFirst(8).prefix(ClusterSlot.count) ?? []
        let isMoving = ranges.contains { $0.hasPrefix("[\(slot)->-") || $0.hasPrefix("[\(slot)-<-") }
        let serves = ranges.contains { range in
            let bounds = range.split(separator: "-").compactMap { Int($0) }
            return bounds.count == 1 ? bounds[0] == slot : bounds.count == 2 && (bounds[0]...max(bounds[0], bounds[1])).contains(slot)
        }
        guard let line, serves, !isMoving else {
            throw CacheError.serverError(
                endpoint: store.endpoint,
                message: "namespace \(name) is on slot \(slot), which is being moved between nodes (a reshard); "
                    + "act on it once the move has finished")
        }
        return String(line[1].prefix(300))
    }

    /// Runs `step` on namespace `name` while its slot stays on one node (see ``slotHome(of:)``):
    /// throws, after the step, when the slot started moving or moved meanwhile.
    func whileSlotStays<T>(_ name: String, _ step: () throws -> T) throws -> T {
        let home = try slotHome(of: name)
        let result = try step()
        guard try slotHome(of: name) == home else {
            throw CacheError.serverError(
                endpoint: store.endpoint,
                message: "namespace \(name)'s slot moved to another node while the action ran there; "
                    + "act on it again once the move has finished")
        }
        return result
    }
}
