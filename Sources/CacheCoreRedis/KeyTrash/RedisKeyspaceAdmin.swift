import CacheCore
import Foundation
import Synchronization

/// Deleting keys of a Redis keyspace, never a ``RedisStore``'s own (a key, marked keys, or every
/// key under a prefix), with a preview, progress, stop, a log of deletions and an undo, as
/// ``StoreAdministering`` so the console's and the CLI's one action path runs it
/// (docs/REDIS.md, "Deleting keys").
///
/// Targets are `.deleteKeys(.key/.keys/.prefix)` in the namespace ``namespace``, keys written
/// as `PrintableKey` text. Where a RedisStore wrote under the prefix, its keys are refused
/// (its actions keep its namespaces right) and every other key may be deleted; deletion ids
/// come from the store's audit sequence, so they never repeat a store action's.
///
/// A preview walks the keys (`SCAN MATCH`, every primary) and captures them with their
/// `MEMORY USAGE`; running the same target deletes exactly those that still exist, in batches
/// of at most ``batchSize``: each key is `DUMP`ed with its expiry into a trash hash in its own
/// slot and unlinked, and counted in the slot's ledger, atomically per slot. The undo `RESTORE`s
/// each key that was not written again since.
package final class RedisKeyspaceAdmin: StoreAdministering {
    /// The namespace deletion targets name.
    package static let namespace = "keys"
    /// The most keys one preview captures (a larger prefix is refused: pick a narrower one).
    package static let maxKeys = 1_000_000
    /// Keys per script call at most.
    static let batchSize = 500

    private let servers: RedisServers
    private let endpoint: String
    private let keys: KeyTrashKeys
    /// The keys of a RedisStore under the prefix (deletions refuse them where one wrote).
    private let storeKeys: RedisKeys
    private let log: KeyTrashLog
    private let captured = Mutex<[AdminTarget: Capture]>([:])

    /// What a preview found: the keys and their sizes.
    private struct Capture {
        var keys: [Data]
        var bytes: Int
    }

    init(servers: RedisServers, prefix: String) throws {
        if case .cluster = servers, prefix.contains(where: { $0 == "{" || $0 == "}" }) {
            throw CacheError.unsupported(
                feature: "a prefix with { or } on Redis Cluster", reason: "the undo's keys carry their slot's hash tag")
        }
        self.servers = servers
        endpoint = servers.description
        keys = KeyTrashKeys(prefix: prefix)
        let isCluster = if case .cluster = servers { true } else { false }
        storeKeys = RedisKeys(prefix: prefix, isClustered: isCluster)
        log = KeyTrashLog(
            keys: keys, sequence: AuditSequence(servers: servers, keys: storeKeys), servers: servers,
            endpoint: servers.description)
    }

    package func preview(_ target: AdminTarget) throws -> ActionImpact {
        let capture = try preview(measuring: target)
        captured.withLock { $0[target] = capture }
        return ActionImpact(
            entries: capture.keys.count, bytes: capture.bytes, recentHitShare: nil,
            sampleKeys: capture.keys.prefix(10).map { Self.namespace + "/" + PrintableKey.text($0) })
    }

    package func run(_ target: AdminTarget, origin: ActionOrigin, progress: ((ActionProgress) -> Bool)?) throws
        -> ActionOutcome
    {
        let capture = try captured.withLock { $0.removeValue(forKey: target) } ?? preview(measuring: target)
        let id = try log.begin(
            target, samples: capture.keys.prefix(5).map { Self.namespace + "/" + PrintableKey.text($0) }, origin: origin,
            now: Self.now())
        var removed = 0
        var bytes = 0
        var handled = 0
        var stopped = false
        for start in stride(from: 0, to: capture.keys.count, by: Self.batchSize) {
            let batch = capture.keys[start..<min(start + Self.batchSize, capture.keys.count)]
            do {
                let moved = try move(Array(batch), id: id)
                removed += moved.keys
                bytes += moved.bytes
            } catch {
                // The ledgers count what the scripts moved, replies lost or not.
                let counted = (try? log.finish(id, now: Self.now()))?.entries ?? removed
                throw CacheError.serverError(
                    endpoint: endpoint,
                    message: "stopped after deleting \(counted) of \(capture.keys.count) keys (deletion #\(id); "
                        + "restore \(id) undoes them): \(error)")
            }
            handled += batch.count
            if let progress, !progress(ActionProgress(done: handled, total: capture.keys.count)) {
                stopped = handled < capture.keys.count
                break
            }
        }
        try log.finish(id, now: Self.now())
        return ActionOutcome(
            auditID: id, removed: removed, bytes: bytes, isUndoable: true, isCancelled: stopped,
            notRemoved: handled - removed)
    }

    package func restore(_ auditID: Int64, origin: ActionOrigin) throws -> Int {
        guard let record = try log.records(limit: 1, id: auditID, now: Self.now()).first else {
            throw CacheError.nothingToRestore(reason: "there is no deletion #\(auditID) in the log of \(endpoint)")
        }
        guard record.undoneAt == nil else {
            throw CacheError.nothingToRestore(reason: "deletion #\(auditID) was already undone")
        }
        if record.finishedAt == nil && record.origin.isRunning {
            throw CacheError.nothingToRestore(
                reason: "deletion #\(auditID) is still running (pid \(record.origin.pid)); undo it once it has ended")
        }
        var restored = 0
        var failed = 0
        try RedisStore.mapping(endpoint) {
            for trash in try trashes(of: auditID) {
                let counts = try restore(trash: trash)
                restored += counts.restored
                failed += counts.failed
            }
        }
        guard failed == 0 else {
            throw CacheError.serverError(
                endpoint: endpoint,
                message: "the undo of deletion #\(auditID) restored \(restored) keys; \(failed) could not be restored "
                    + "(RESTORE refused them; they stay in its trash)")
        }
        try log.set(auditID, "undone", Self.now())
        try log.set(auditID, "restored", Int64(restored))
        return restored
    }

    package func auditLog(limit: Int) throws -> [AuditRecord] {
        try log.records(limit: limit, now: Self.now())
    }

    package func auditRecord(_ id: Int64) throws -> AuditRecord? {
        try log.records(limit: 1, id: id, now: Self.now()).first
    }

    // MARK: Private

    /// What `target` selects: a key, keys or a prefix in ``namespace``.
    private enum Selection {
        case keys([Data])
        case prefix(Data)
    }

    private static func selection(_ target: AdminTarget) throws -> Selection {
        switch target {
        case .deleteKeys(.key(namespace, let key)): return .keys([bytes(key)])
        case .deleteKeys(.keys(namespace, let keys)): return .keys(keys.map(bytes))
        case .deleteKeys(.prefix(namespace, let prefix)): return .prefix(bytes(prefix))
        default:
            throw CacheError.unsupported(
                feature: "\(target) on a Redis keyspace", reason: "delete a key, marked keys or a prefix")
        }
    }

    private static func bytes(_ text: String) -> Data { PrintableKey.bytes(text) ?? Data(text.utf8) }

    /// What `target` selects now, refused where it reaches a RedisStore's keys.
    private func preview(measuring target: AdminTarget) throws -> Capture {
        let selection = try Self.selection(target)
        try refuseStoreKeys(selection)
        return try measure(selection)
    }

    /// Throws when `selection` reaches keys under the prefix and a RedisStore wrote there.
    private func refuseStoreKeys(_ selection: Selection) throws {
        let root = Data(storeKeys.prefix.utf8)
        let what: String? =
            switch selection {
            case .keys(let named): named.first { $0.starts(with: root) }.map { "the key " + PrintableKey.text($0) }
            case .prefix(let prefix):
                prefix.starts(with: root) || root.starts(with: prefix)
                    ? "the keys under prefix " + PrintableKey.text(prefix) : nil
            }
        guard let what else { return }
        let holdsStore = try RedisStore.mapping(endpoint) {
            try servers.withConnection(forKey: storeKeys.namespaces) {
                try $0.command(["EXISTS", RedisArgument(storeKeys.namespaces)]).integer == 1
            }
        }
        guard holdsStore else { return }
        throw CacheError.unsupported(
            feature: "deleting \(what)",
            reason: "the RedisStore under \(storeKeys.prefix) owns the keys there; remove its entries with "
                + "cachedeck clear or cachedeck invalidate (the console's Entries view), or give a prefix outside it")
    }

    /// The keys `selection` names that exist now, with their `MEMORY USAGE`; never the log's
    /// (its trash, records and id sequence).
    private func measure(_ selection: Selection) throws -> Capture {
        let own = Data(keys.root.utf8)
        var found: [Data] = []
        switch selection {
        case .keys(let named):
            found = Array(Set(named)).sorted { $0.lexicographicallyPrecedes($1) }
        case .prefix(let prefix):
            let epoch = servers.epoch
            try RedisStore.mapping(endpoint) {
                for pool in servers.primaries {
                    try pool.withConnection { connection in
                        var cursor = ScanCursor()
                        cursor.keysInDatabase = try connection.command(["DBSIZE"]).integer
                        repeat {
                            let reply = try connection.command(
                                cursor.command(match: KeyspaceScan.pattern(prefix), count: 1000))
                            found += try cursor.advance(with: reply, from: connection.endpoint.description)
                            guard found.count <= Self.maxKeys else {
                                throw CacheError.unsupported(
                                    feature: "deleting more than \(Self.maxKeys) keys at once",
                                    reason: "delete a narrower prefix")
                            }
                        } while !cursor.isComplete
                    }
                }
                if case .cluster(let router) = servers {
                    try router.refresh()
                    if router.epoch != epoch {
                        throw RedisError.server("the cluster's slots moved during the preview; preview again")
                    }
                }
            }
        }
        let sequence = Data(storeKeys.auditSequence.utf8)
        found = found.filter { !$0.starts(with: own) && $0 != sequence }
        var kept: [Data] = []
        var bytes = 0
        for start in stride(from: 0, to: found.count, by: 1000) {
            let batch = Array(found[start..<min(start + 1000, found.count)])
            let sizes = try RedisStore.mapping(endpoint) {
                try servers.pipeline(batch.map { ($0, ["MEMORY", "USAGE", RedisArgument($0)]) })
            }
            for (key, size) in zip(batch, sizes) {
                guard case .integer(let value) = size else { continue }  // gone meanwhile (null)
                kept.append(key)
                bytes = bytes.addingClamped(Int(clamping: max(0, value)))
            }
        }
        return Capture(keys: kept, bytes: bytes)
    }

    /// Moves `batch` into the trash of deletion `id`: one script call per slot, pipelined per
    /// node, each counting what it moves in the slot's ledger (the slots named in the log first).
    private func move(_ batch: [Data], id: Int64) throws -> (keys: Int, bytes: Int) {
        let isCluster = if case .cluster = servers { true } else { false }
        let bySlot = Dictionary(grouping: batch) { isCluster ? ClusterSlot.of($0) : 0 }
        try log.touch(id, slots: bySlot.keys)
        let calls = bySlot.map { slot, names in
            let trash = keys.trash(id, slot: slot)
            let command: [RedisArgument] =
                [
                    "EVAL", RedisArgument(KeyTrashScript.move), RedisArgument(names.count + 2), RedisArgument(trash),
                    RedisArgument(keys.ledger(id, slot: slot)),
                ] + names.map { RedisArgument($0) } + [RedisArgument(KeyTrashLog.retention)]
            return (key: Data(trash.utf8), command: command)
        }
        let replies = try RedisStore.mapping(endpoint) { try servers.pipeline(calls) }
        var moved = (keys: 0, bytes: 0)
        for reply in replies {
            if case .error(let message) = reply {
                throw CacheError(RedisError(serverMessage: message, endpoint: endpoint), endpoint: endpoint)
            }
            let counts = (reply.array ?? []).compactMap(\.integer)
            guard counts.count == 2 else { throw CacheError.serverError(endpoint: endpoint, message: "unexpected reply") }
            moved.keys += Int(clamping: counts[0])
            moved.bytes = moved.bytes.addingClamped(Int(clamping: counts[1]))
        }
        return moved
    }

    /// The trash hashes of deletion `id`: those of the slots its record names, or, for a
    /// record from before records named them, those a `SCAN` of every primary finds.
    private func trashes(of id: Int64) throws -> [Data] {
        if try log.namesSlots(id) {
            return try log.slots(id).map { Data(keys.trash(id, slot: $0).utf8) }
        }
        var found: [Data] = []
        for pool in servers.primaries {
            try pool.withConnection { connection in
                try connection.scanAll(matching: keys.trashPattern(id)) { found += $0 }
            }
        }
        return found
    }

    /// Restores what the trash hash `trash` holds, `HSCAN` batch by batch.
    private func restore(trash: Data) throws -> (restored: Int, failed: Int) {
        var counts = (restored: 0, failed: 0)
        try servers.withConnection(forKey: trash) { connection in
            var cursor = "0"
            var calls = 0
            let limit = try ScanLimit(on: connection, set: nil)
            repeat {
                try limit.check(calls, endpoint: connection.endpoint.description)
                calls += 1
                let reply = try connection.command(["HSCAN", RedisArgument(trash), RedisArgument(cursor), "COUNT", 200])
                guard let parts = reply.array, parts.count == 2, let next = parts[0].string else {
                    throw RedisError.server("HSCAN gave an unexpected reply")
                }
                cursor = next
                let items = parts[1].array ?? []
                let fields = stride(from: 0, to: items.count - 1, by: 2).compactMap { items[$0].data }
                guard !fields.isEmpty else { continue }
                let result = try connection.command(
                    ["EVAL", RedisArgument(KeyTrashScript.restore), RedisArgument(fields.count + 1), RedisArgument(trash)]
                        + fields.map { RedisArgument($0) })
                let numbers = (result.array ?? []).compactMap(\.integer)
                guard numbers.count == 4 else { throw RedisError.server("the restore script gave an unexpected reply") }
                counts.restored += Int(clamping: numbers[0])
                counts.failed += Int(clamping: numbers[3])
            } while cursor != "0"
        }
        return counts
    }

    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}

extension RedisKeyspace {
    /// Deletions of this keyspace's keys, their log and undo, keeping their trash under
    /// `prefix` (`<prefix>keytrash:`).
    package func admin(prefix: String = RedisStoreOptions.defaultPrefix) throws -> RedisKeyspaceAdmin {
        try RedisKeyspaceAdmin(servers: servers, prefix: prefix)
    }
}
