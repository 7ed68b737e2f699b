import CacheCore
import Foundation

/// What went wrong talking to Redis, as one line a person can act on.
package enum RedisError: Error, Equatable, CustomStringConvertible {
    /// The URL cannot name a Redis server.
    case badURL(String)
    /// No connection could be made (server down, wrong host or port).
    case cannotConnect(endpoint: String, reason: String)
    /// The server refused the login, or wants one the URL does not give.
    case authenticationFailed(endpoint: String, reason: String)
    /// The server did not answer within the timeout.
    case timeout(endpoint: String)
    /// The server answered with an error.
    case server(String)
    /// The server refused a write: `maxmemory` is reached and its policy evicts nothing.
    case outOfMemory(String)
    /// The connection broke mid-way; whether the last command was applied is unknown.
    case connectionLost(endpoint: String, reason: String)
    /// A reply was larger than ``RedisReplyLimits`` allow (`limit` says which); it was
    /// abandoned with its connection.
    case replyTooLarge(endpoint: String, limit: String)

    /// An error reply of the server, sorted into the cases above.
    init(serverMessage message: String, endpoint: String) {
        let line = Self.oneLine(message)
        if line.hasPrefix("OOM ") {
            self = .outOfMemory(line)
        } else if line.hasPrefix("NOAUTH") || line.hasPrefix("WRONGPASS") {
            // NOPERM (an ACL user without the command) and LOADING are not about the login:
            // they stay the server's own words.
            self = .authenticationFailed(endpoint: endpoint, reason: line)
        } else {
            self = .server(line)
        }
    }

    package var description: String {
        switch self {
        case .badURL(let reason): "bad Redis URL: \(reason)"
        case .cannotConnect(let endpoint, let reason): "cannot connect to Redis at \(endpoint): \(reason)"
        case .authenticationFailed(let endpoint, let reason):
            "Redis at \(endpoint) refused the login (\(reason)); check the password in the URL or REDISCLI_AUTH"
        case .timeout(let endpoint): "Redis at \(endpoint) did not send a whole reply in time"
        case .server(let message): "Redis error: \(message)"
        case .outOfMemory(let message): "Redis is out of memory and refused the write (\(message))"
        case .connectionLost(let endpoint, let reason): "lost the connection to Redis at \(endpoint): \(reason)"
        case .replyTooLarge(let endpoint, let limit):
            "Redis at \(endpoint) sent a reply larger than one reply may hold (\(limit)); it was not read"
        }
    }

    /// `text` on one line of at most 300 characters, without control characters (a server's
    /// error text is not trusted to be either).
    static func oneLine(_ text: String) -> String {
        let scalars = text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) }
        let line = String(scalars).trimmingCharacters(in: .whitespaces)
        return line.count > 300 ? line.prefix(299) + "…" : line
    }
}
