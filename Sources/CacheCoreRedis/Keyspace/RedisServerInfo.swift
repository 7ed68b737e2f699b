import CacheCore
import Foundation

/// A Redis server at a glance, from `INFO` and `DBSIZE`.
public struct RedisServerInfo: Sendable, Hashable, Codable {
    /// `host:port/db`, never the password.
    public var endpoint: String
    /// The database browsed (`SELECT`ed from the URL).
    public var database: Int
    /// `redis_version`.
    public var version: String
    /// `role`: `master` or `slave` (a replica).
    public var role: String
    /// `used_memory` in bytes.
    public var usedMemory: Int
    /// `maxmemory` in bytes; 0 means no limit.
    public var maxMemory: Int
    /// `maxmemory_policy`, e.g. `noeviction` or `allkeys-lru`.
    public var maxMemoryPolicy: String
    /// `DBSIZE`: the exact number of keys in the database when asked.
    public var keyCount: Int
    /// A cluster's nodes (`nil`: one server); see `RedisKeyspace.clusterNodes()`.
    public var nodes: [RedisClusterNode]? = nil

    /// Reads `INFO` and `DBSIZE` in one round trip.
    static func read(on connection: RedisConnection) throws(RedisError) -> RedisServerInfo {
        let replies = try connection.pipeline([["INFO"], ["DBSIZE"]])
        let fields = parse(replies[0].string ?? "")
        guard let keyCount = replies[1].integer else {
            if case .error(let message) = replies[1] {
                throw RedisError(serverMessage: message, endpoint: connection.endpoint.description)
            }
            throw .server("DBSIZE gave no number")
        }
        return RedisServerInfo(
            endpoint: connection.endpoint.description, database: connection.endpoint.database,
            version: fields["redis_version"] ?? "?", role: fields["role"] ?? "?",
            usedMemory: Int(fields["used_memory"] ?? "") ?? 0, maxMemory: Int(fields["maxmemory"] ?? "") ?? 0,
            maxMemoryPolicy: fields["maxmemory_policy"] ?? "?", keyCount: Int(keyCount))
    }

    /// `INFO`'s `name:value` lines as a dictionary (sections and comments skipped).
    static func parse(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = RedisError.oneLine(String(line[line.index(after: colon)...]))
        }
        return fields
    }
}
