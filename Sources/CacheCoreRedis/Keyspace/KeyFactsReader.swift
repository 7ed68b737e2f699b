import CacheCore
import Foundation

/// Reads what the tree shows of each key a scan batch found: `TYPE`, `PTTL` and
/// `MEMORY USAGE` (commands a scan pipelines with its next `SCAN`), then, for the collections
/// only, `OBJECT ENCODING` and the length that tell whether Redis sampled their size. Only
/// read commands.
enum KeyFactsReader {
    /// Encodings whose `MEMORY USAGE` Redis estimates from a sample of
    /// `sampleSize` elements (exact when the value has no more).
    static let sampledEncodings: Set<String> = ["hashtable", "skiplist", "quicklist", "linkedlist", "stream"]
    /// `MEMORY USAGE`'s default `SAMPLES`.
    static let sampleSize: Int64 = 5

    /// The commands asking the facts of `keys` (`TYPE`, `PTTL` and `MEMORY USAGE` each). With
    /// `sizesOnly` (keys a full tree counts without listing), only `MEMORY USAGE` is asked:
    /// their type and TTL are never shown, and totals over them are estimates anyway.
    static func commands(_ keys: [Data], sizesOnly: Bool) -> [[RedisArgument]] {
        var commands: [[RedisArgument]] = []
        commands.reserveCapacity(keys.count * (sizesOnly ? 1 : 3))
        for key in keys {
            let name = RedisArgument(key)
            if !sizesOnly {
                commands.append([typeArgument, name])
                commands.append([pttlArgument, name])
            }
            commands.append([memoryArgument, usageArgument, name])
        }
        return commands
    }

    /// The facts in the `replies` to ``commands(_:sizesOnly:)``; keys gone since the scan
    /// found them are left out.
    static func facts(
        of keys: [Data], sizesOnly: Bool, replies: [RedisReply], now: Int64, endpoint: String
    ) throws(RedisError) -> [(Data, KeyspaceTree.KeyFacts)] {
        let replies = try checked(replies, endpoint: endpoint)
        var found: [(Data, KeyspaceTree.KeyFacts)] = []
        found.reserveCapacity(keys.count)
        if sizesOnly {
            for (index, key) in keys.enumerated() {
                guard let bytes = replies[index].integer else { continue }
                found.append((key, KeyspaceTree.KeyFacts(type: .unread, bytes: Int(clamping: max(0, bytes)), isSampled: false)))
            }
            return found
        }
        for (index, key) in keys.enumerated() {
            let base = index * 3
            guard let type = replies[base].string, type != "none", let bytes = replies[base + 2].integer else {
                continue
            }
            // Numbers from the server saturate: a hostile `PTTL` or `MEMORY USAGE` is not trusted.
            let ttl = replies[base + 1].integer ?? -1
            found.append(
                (
                    key,
                    KeyspaceTree.KeyFacts(
                        type: RedisKeyType(rawValue: type), expiresAt: ttl >= 0 ? now.addingClamped(ttl) : nil,
                        bytes: Int(clamping: max(0, bytes)), isSampled: false)
                ))
        }
        return found
    }

    /// Marks the collections among `found` whose size Redis sampled: for them only (a
    /// string's size is never sampled), `OBJECT ENCODING` and their length, in one pipeline.
    static func markSampled(_ found: inout [(Data, KeyspaceTree.KeyFacts)], on connection: RedisConnection)
        throws(RedisError)
    {
        let collections = found.indices.filter { found[$0].1.type != .string && found[$0].1.type != .unread }
        guard !collections.isEmpty else { return }
        let replies = try checked(
            try connection.pipeline(
                collections.flatMap { index in
                    [["OBJECT", "ENCODING", RedisArgument(found[index].0)], lengthCommand(found[index].1.type, found[index].0)]
                }),
            endpoint: connection.endpoint.description)
        for (position, index) in collections.enumerated() {
            let encoding = replies[position * 2].string ?? ""
            found[index].1.isSampled =
                sampledEncodings.contains(encoding) && (replies[position * 2 + 1].integer ?? .max) > sampleSize
        }
    }

    // The commands' words, made once rather than once a key.
    private static let typeArgument: RedisArgument = "TYPE"
    private static let pttlArgument: RedisArgument = "PTTL"
    private static let memoryArgument: RedisArgument = "MEMORY"
    private static let usageArgument: RedisArgument = "USAGE"

    /// The command that counts the elements of a key of `type` (`STRLEN` for anything else).
    static func lengthCommand(_ type: RedisKeyType, _ key: Data) -> [RedisArgument] {
        let name = RedisArgument(key)
        switch type {
        case .list: return ["LLEN", name]
        case .hash: return ["HLEN", name]
        case .set: return ["SCARD", name]
        case .zset: return ["ZCARD", name]
        case .stream: return ["XLEN", name]
        default: return ["STRLEN", name]
        }
    }

    /// `replies`, unless one is a refusal (an ACL without the command): that one is thrown.
    /// `WRONGTYPE` (the key changed type meanwhile) is left in place, and so are a cluster's
    /// `MOVED` and `ASK` in a walk of one node (the key's slot moved to a node that walks it);
    /// a read routed by its key (`isRouted`) throws them, so the routing follows them.
    static func checked(_ replies: [RedisReply], endpoint: String, isRouted: Bool = false) throws(RedisError)
        -> [RedisReply]
    {
        let leftInPlace = isRouted ? ["WRONGTYPE"] : ["WRONGTYPE", "MOVED ", "ASK "]
        for reply in replies {
            if case .error(let message) = reply, !leftInPlace.contains(where: { message.hasPrefix($0) }) {
                throw RedisError(serverMessage: message, endpoint: endpoint)
            }
        }
        return replies
    }
}
