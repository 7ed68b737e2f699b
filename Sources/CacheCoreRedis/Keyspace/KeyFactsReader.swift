import CacheCore
import Foundation

/// Reads what the tree shows of each key a scan batch found: `TYPE`, `PTTL`, `MEMORY USAGE`
/// and `OBJECT ENCODING` in one pipeline, then the length of the keys whose size Redis
/// samples, in a second one. Only read commands.
enum KeyFactsReader {
    /// Encodings whose `MEMORY USAGE` Redis estimates from a sample of
    /// `sampleSize` elements (exact when the value has no more).
    static let sampledEncodings: Set<String> = ["hashtable", "skiplist", "quicklist", "linkedlist", "stream"]
    /// `MEMORY USAGE`'s default `SAMPLES`.
    static let sampleSize: Int64 = 5

    /// The facts of `keys`; keys gone since the scan found them are left out.
    static func read(_ keys: [Data], on connection: RedisConnection, now: Int64) throws(RedisError) -> [(
        Data, KeyspaceTree.KeyFacts
    )] {
        guard !keys.isEmpty else { return [] }
        let commands: [[RedisArgument]] = keys.flatMap { key -> [[RedisArgument]] in
            let name = RedisArgument(key)
            return [["TYPE", name], ["PTTL", name], ["MEMORY", "USAGE", name], ["OBJECT", "ENCODING", name]]
        }
        let replies = try checked(try connection.pipeline(commands), on: connection)
        var found: [(Data, KeyspaceTree.KeyFacts, encoding: String)] = []
        for (index, key) in keys.enumerated() {
            let base = index * 4
            guard let type = replies[base].string, type != "none", let bytes = replies[base + 2].integer else {
                continue
            }
            // Numbers from the server saturate: a hostile `PTTL` or `MEMORY USAGE` is not trusted.
            let ttl = replies[base + 1].integer ?? -1
            let facts = KeyspaceTree.KeyFacts(
                type: RedisKeyType(rawValue: type), expiresAt: ttl >= 0 ? now.addingClamped(ttl) : nil,
                bytes: Int(max(0, bytes)), isSampled: false)
            found.append((key, facts, replies[base + 3].string ?? ""))
        }
        let sampled = found.indices.filter { sampledEncodings.contains(found[$0].encoding) }
        let lengths = try checked(
            try connection.pipeline(sampled.map { lengthCommand(found[$0].1.type, found[$0].0) }), on: connection)
        for (position, index) in sampled.enumerated() {
            found[index].1.isSampled = (lengths[position].integer ?? .max) > sampleSize
        }
        return found.map { ($0.0, $0.1) }
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
    /// `WRONGTYPE` (the key changed type meanwhile) is left in place.
    static func checked(_ replies: [RedisReply], on connection: RedisConnection) throws(RedisError) -> [RedisReply] {
        for reply in replies {
            if case .error(let message) = reply, !message.hasPrefix("WRONGTYPE") {
                throw RedisError(serverMessage: message, endpoint: connection.endpoint.description)
            }
        }
        return replies
    }
}
