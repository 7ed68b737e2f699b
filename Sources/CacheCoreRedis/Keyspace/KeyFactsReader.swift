import CacheCore
import Foundation

/// Reads what the tree shows of each key a scan batch found: `TYPE`, `PTTL` and
/// `MEMORY USAGE` in one pipeline, then, for the collections only (a string's size is never
/// sampled), `OBJECT ENCODING` and the length that tell whether Redis sampled their size, in
/// a second one. Only read commands.
enum KeyFactsReader {
    /// Encodings whose `MEMORY USAGE` Redis estimates from a sample of
    /// `sampleSize` elements (exact when the value has no more).
    static let sampledEncodings: Set<String> = ["hashtable", "skiplist", "quicklist", "linkedlist", "stream"]
    /// `MEMORY USAGE`'s default `SAMPLES`.
    static let sampleSize: Int64 = 5

    /// The facts of `keys`; keys gone since the scan found them are left out. `then`, when
    /// given, rides in the first pipeline (the next `SCAN`, so a batch costs no extra round
    /// trip) and its reply is returned as it came.
    ///
    /// With `sizesOnly` (keys a full tree counts without listing), only `MEMORY USAGE` is
    /// asked: their type and TTL are never shown, and totals over them are estimates anyway.
    static func read(
        _ keys: [Data], then next: [RedisArgument]? = nil, sizesOnly: Bool = false, on connection: RedisConnection,
        now: Int64
    ) throws(RedisError) -> (facts: [(Data, KeyspaceTree.KeyFacts)], next: RedisReply?) {
        let perKey = sizesOnly ? 1 : 3
        var commands: [[RedisArgument]] = []
        commands.reserveCapacity(keys.count * perKey + 1)
        for key in keys {
            let name = RedisArgument(key)
            if !sizesOnly {
                commands.append(["TYPE", name])
                commands.append(["PTTL", name])
            }
            commands.append(["MEMORY", "USAGE", name])
        }
        if let next { commands.append(next) }
        guard !commands.isEmpty else { return ([], nil) }
        var replies = try connection.pipeline(commands)
        let nextReply = next == nil ? nil : replies.removeLast()
        replies = try checked(replies, on: connection)
        var found: [(Data, KeyspaceTree.KeyFacts)] = []
        found.reserveCapacity(keys.count)
        if sizesOnly {
            for (index, key) in keys.enumerated() {
                guard let bytes = replies[index].integer else { continue }
                found.append((key, KeyspaceTree.KeyFacts(type: .unread, bytes: Int(clamping: max(0, bytes)), isSampled: false)))
            }
            return (found, nextReply)
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
        let collections = found.indices.filter { found[$0].1.type != .string }
        if !collections.isEmpty {
            let replies = try checked(
                try connection.pipeline(
                    collections.flatMap { index in
                        [["OBJECT", "ENCODING", RedisArgument(found[index].0)], lengthCommand(found[index].1.type, found[index].0)]
                    }),
                on: connection)
            for (position, index) in collections.enumerated() {
                let encoding = replies[position * 2].string ?? ""
                found[index].1.isSampled =
                    sampledEncodings.contains(encoding) && (replies[position * 2 + 1].integer ?? .max) > sampleSize
            }
        }
        return (found, nextReply)
    }

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
    /// `WRONGTYPE` (the key changed type meanwhile) and a cluster's `MOVED` and `ASK` (the
    /// key's slot moved to a node that walks it) are left in place.
    static func checked(_ replies: [RedisReply], on connection: RedisConnection) throws(RedisError) -> [RedisReply] {
        for reply in replies {
            if case .error(let message) = reply,
                !["WRONGTYPE", "MOVED ", "ASK "].contains(where: { message.hasPrefix($0) })
            {
                throw RedisError(serverMessage: message, endpoint: connection.endpoint.description)
            }
        }
        return replies
    }
}
