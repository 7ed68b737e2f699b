import CacheCore
import Foundation

/// A Redis Cluster URL: `redis+cluster://[user:password@]host:port[,host:port…]/`, naming
/// the nodes to ask for the slot map first (any one that answers will do). A cluster has one
/// database, so the path is empty or `/0`.
enum ClusterURL {
    /// The scheme that marks a cluster URL.
    static let scheme = "redis+cluster://"

    /// Whether `url` is a cluster URL.
    static func isCluster(_ url: String) -> Bool { url.lowercased().hasPrefix(scheme) }

    /// The seed endpoints `url` names, each logging in as the URL says.
    static func seeds(_ url: String, environment: [String: String]) throws(RedisError) -> [RedisEndpoint] {
        guard isCluster(url) else { throw .badURL("not a redis+cluster:// URL") }
        var rest = Substring(url.dropFirst(scheme.count))
        var path = Substring("")
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        guard path.isEmpty || path == "0" else {
            throw .badURL("a cluster has one database: end the URL with / or /0, not /\(path.prefix(20))")
        }
        var login = ""
        if let at = rest.lastIndex(of: "@") {
            login = String(rest[...at])
            rest = rest[rest.index(after: at)...]
        }
        let hosts = rest.split(separator: ",", omittingEmptySubsequences: false)
        guard !hosts.isEmpty, hosts.count <= 64, hosts.allSatisfy({ !$0.isEmpty }) else {
            throw .badURL("a cluster URL names its nodes as host:port,host:port (1 to 64 of them)")
        }
        return try hosts.map { host throws(RedisError) in
            try RedisEndpoint(url: "redis://" + login + host + "/0", environment: environment)
        }
    }

    /// The URL without its password.
    static func redacted(_ seeds: [RedisEndpoint]) -> String {
        scheme + (seeds.first?.user.map { "\($0)@" } ?? "") + seeds.map(\.description).joined(separator: ",") + "/"
    }
}
