import CacheCore
import Foundation

/// A read-only browser of any Redis database: the server at a glance, the keyspace as a
/// prefix tree built with `SCAN` in bounded batches, and single keys in full.
///
/// It sends read commands only (`INFO`, `DBSIZE`, `SCAN`, `TYPE`, `PTTL`, `MEMORY USAGE`,
/// `OBJECT ENCODING`, the length commands, `GETRANGE`, `LRANGE`, `HSCAN`, `SSCAN`, `ZRANGE`,
/// `XRANGE`), never `KEYS` nor anything unbounded, so it works with an ACL user allowed
/// `+@read +@connection +info` and never changes the data. Keys and values are bytes:
/// names that are not UTF-8 show with `PrintableKey` escapes.
package final class RedisKeyspace: Sendable {
    /// `host:port/db`, never the password.
    package let endpoint: String
    /// The URL without its password.
    package let redactedURL: String
    /// The separator the tree splits key names on.
    package let separator: String
    let servers: RedisServers

    /// Connects to the database `url` names (`redis://[user:password@]host:port/db`, or a
    /// cluster's nodes: `redis+cluster://host:port,host:port/`; the password may come from
    /// `REDISCLI_AUTH`) and logs in, so a bad URL, a refused connection or a wrong password
    /// fails here with one line. On a cluster, scans walk every primary and a key is read
    /// from the node serving its slot.
    package init(
        url: String, separator: String = ":", environment: [String: String] = ProcessInfo.processInfo.environment,
        timeout: Duration = .seconds(5)
    ) throws {
        servers = try RedisServers(url: url, environment: environment, poolSize: 2, timeout: timeout)
        endpoint = servers.description
        redactedURL = servers.redactedURL
        self.separator = separator
    }

    /// Whether `text` is meant as a URL rather than a file: it starts with a scheme and `://`
    /// (`redis://`, but also `rediss://` or `redis+cluster://`, which the URL parser then
    /// refuses in one line: a URL is never taken as a path).
    package static func isURL(_ text: String) -> Bool {
        guard let end = text.range(of: "://")?.lowerBound, end > text.startIndex else { return false }
        let scheme = text[..<end]
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "+-."))
        return scheme.first?.isLetter == true && scheme.unicodeScalars.allSatisfy { $0.isASCII && allowed.contains($0) }
    }

    /// Whether `text` names a Redis Cluster (`redis+cluster://`).
    package static func isClusterURL(_ text: String) -> Bool { ClusterURL.isCluster(text) }

    /// The bytes of a key or prefix typed as text: `PrintableKey` escapes (`\xff`, `\\`)
    /// stand for their bytes, as the tree shows names that are not UTF-8.
    package static func bytes(ofTyped text: String) -> Data {
        PrintableKey.bytes(text) ?? Data(text.utf8)
    }

    /// A key or prefix as printable text: UTF-8 as it is, other bytes as `PrintableKey`
    /// escapes (which `bytes(ofTyped:)` reads back).
    package static func text(of bytes: Data) -> String {
        PrintableKey.text(bytes)
    }

    /// The server's version, role, memory and exact key count (`DBSIZE`); on a cluster, the
    /// memory and keys of the primaries that answer, summed (the role says how many did not).
    package func server() throws -> RedisServerInfo {
        try servers.info()
    }

    /// A new scan of the keys starting with `prefix` (all keys when empty), `batchSize` keys
    /// a `SCAN` call, leaving each server alone `idleShare` of the time; nothing is read until
    /// it is stepped. The defaults keep other clients' latency near what it is without the
    /// scan: a batch is about 0.1 ms of a server's time, and a server rests three times as
    /// long as a round trip kept it busy, at most a second (see docs/performance.md).
    package func scan(prefix: Data = Data(), batchSize: Int = 40, idleShare: Double = 0.75) -> KeyspaceScan {
        KeyspaceScan(servers: servers, prefix: prefix, separator: separator, batchSize: batchSize, idleShare: idleShare)
    }

    /// `key` in full; `nil` when it does not exist.
    package func key(_ key: Data) throws -> RedisKeyDetail? {
        try servers.withConnection(forKey: key) { connection in
            try RedisKeyReader.read(key, on: connection, now: KeyspaceScan.now())
        }
    }
}
