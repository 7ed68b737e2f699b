import CacheCore
import Foundation

/// A namespace of a ``RedisStore`` as its hash `<prefix>n:<ns>` records it (docs/REDIS.md).
public struct RedisNamespace: Sendable, Hashable, Codable {
    /// The namespace's name.
    public var name: String
    /// The namespace version in force (empty when the hash is gone).
    public var version: String
    /// The generation whose entries are live; every clear or version change adds one.
    public var generation: Int64
    /// The recorded policy, or `nil` when its JSON does not decode (see `policyJSON`).
    public var policy: NamespacePolicy?
    /// The policy as recorded.
    public var policyJSON: String
    /// When its policy or version last changed (ms since 1970); `nil` when not recorded.
    public var updatedAt: Int64?

    /// Every name in the namespace set (`SSCAN`, 1,000 a call) with its hash (one pipeline;
    /// on a cluster one per primary, each hash read on the node serving its slot).
    static func readAll(keys: RedisKeys, servers: RedisServers) throws -> [RedisNamespace] {
        let names = try servers.withConnection(forKey: keys.namespaces) { try Self.names(keys: keys, on: $0) }
        let sorted = names.sorted()
        guard !sorted.isEmpty else { return [] }
        let replies = try servers.pipeline(
            sorted.map { name in
                let hash = keys.namespace(name)
                return (Data(hash.utf8), ["HMGET", RedisArgument(hash), "version", "generation", "policy", "updated"])
            })
        return zip(sorted, replies).map { name, reply in
            let fields = reply.array ?? []
            func field(_ index: Int) -> RedisReply? { index < fields.count ? fields[index] : nil }
            let policyJSON = field(2)?.string ?? ""
            return RedisNamespace(
                name: name, version: field(0)?.string ?? "", generation: field(1)?.integer ?? 1,
                policy: try? JSONDecoder().decode(NamespacePolicy.self, from: Data(policyJSON.utf8)),
                policyJSON: policyJSON, updatedAt: field(3)?.integer)
        }
    }

    /// Every name in the namespace set (`SSCAN`, 1,000 a call, bounded by its size).
    static func names(keys: RedisKeys, on connection: RedisConnection) throws -> Set<String> {
        var names: Set<String> = []
        var cursor = "0"
        let limit = try ScanLimit(on: connection, set: keys.namespaces)
        var calls = 0
        repeat {
            try limit.check(calls, endpoint: connection.endpoint.description)
            calls += 1
            let reply = try connection.command([
                "SSCAN", RedisArgument(keys.namespaces), RedisArgument(cursor), "COUNT", 1000,
            ])
            guard let parts = reply.array, parts.count == 2, let next = parts[0].string else {
                throw RedisError.server("SSCAN gave an unexpected reply")
            }
            cursor = next
            names.formUnion((parts[1].array ?? []).compactMap(\.string))
        } while cursor != "0"
        return names
    }
}
