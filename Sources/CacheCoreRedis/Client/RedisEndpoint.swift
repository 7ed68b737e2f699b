import CacheCore
import Foundation

/// Where a Redis server is and how to log in: parsed from `redis://[user:password@]host:port/db`.
///
/// The password may also come from `REDISCLI_AUTH`, as with `redis-cli`. `rediss://` (TLS) and
/// Unix sockets are refused: the system hiredis this package links has neither.
package struct RedisEndpoint: Sendable, Equatable, CustomStringConvertible {
    var host: String
    var port: Int
    var database: Int
    var user: String?
    var password: String?

    /// The standard port, used when the URL names none.
    static let defaultPort = 6379

    init(host: String, port: Int = Self.defaultPort, database: Int = 0, user: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
        self.password = password
    }

    /// Parses `url`; a password in the URL wins over `REDISCLI_AUTH` in `environment`.
    package init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(RedisError) {
        if url.lowercased().hasPrefix("redis+cluster://") {  // several hosts: not a URL URLComponents reads
            throw .badURL(
                "\(Self.quoted(url)): this reads one server; a Redis Cluster is not supported yet here "
                    + "(keys, key, info, the keyspace browser and apps' RedisStore take a cluster URL)")
        }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw .badURL("\(Self.quoted(url)) is not a URL; expected redis://[user:password@]host:port/db")
        }
        guard scheme == "redis" else {
            let reason =
                scheme == "rediss"
                ? "TLS (rediss://) is not supported by this build; use redis:// through a TLS tunnel"
                : "\(Self.quoted(url)) is not a redis:// URL"
            throw .badURL(reason)
        }
        guard let host = components.host, !host.isEmpty else {
            throw .badURL("\(Self.quoted(url)) names no host; expected redis://host:port/db")
        }
        let port = components.port ?? Self.defaultPort
        guard (1...65535).contains(port) else { throw .badURL("port \(port) is out of range (1–65535)") }
        let path = components.path.drop(while: { $0 == "/" })
        guard path.isEmpty || (path.allSatisfy(\.isASCII) && Int(path).map({ $0 >= 0 }) == true) else {
            throw .badURL("database \(Self.quoted(String(path))) is not a number; expected redis://host:port/0")
        }
        let user = components.percentEncodedUser.flatMap { $0.removingPercentEncoding }.flatMap {
            $0.isEmpty ? nil : $0
        }
        let password =
            components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
            ?? environment["REDISCLI_AUTH"].flatMap { $0.isEmpty ? nil : $0 }
        // `redis://secret@host` is redis-cli's shorthand for a password without a user.
        let (login, secret) = password == nil && user != nil ? (nil, user) : (user, password)
        self.init(
            host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host, port: port,
            database: Int(path) ?? 0, user: login, password: secret)
    }

    /// `host:port/db`, never the password.
    package var description: String {
        let address = host.contains(":") ? "[\(host)]" : host
        return "\(address):\(port)" + (database == 0 ? "" : "/\(database)")
    }

    /// The URL without its password (for screens and logs).
    var redactedURL: String {
        "redis://" + (user.map { "\($0)@" } ?? "") + description
    }

    /// `text` quoted for an error line: without its login (see ``redacted(_:)``), at most 200
    /// characters, control characters replaced.
    private static func quoted(_ text: String) -> String {
        "\""
            + String(
                redacted(text).unicodeScalars.prefix(200).map {
                    $0.properties.generalCategory == .control ? "?" : Character($0)
                })
            + "\""
    }

    /// `text` without what stands between `://` and the last `@` (user and password), whether
    /// or not the rest parses as a URL: a password is never printed.
    package static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@") else {
            return text
        }
        return String(text[..<scheme.upperBound] + text[text.index(after: at)...])
    }
}
