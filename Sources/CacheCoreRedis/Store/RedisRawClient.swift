import CacheCore
import Foundation

/// One plain Redis connection for this package's benchmarks (`cachedeck-bench redis`): the
/// floor a ``RedisStore`` is measured against, through the same client layer. Not public API.
package final class RedisRawClient {
    private let connection: RedisConnection

    /// Connects to `url` (as ``RedisStore/init(url:options:redis:)`` parses it).
    package init(url: String) throws {
        do {
            let endpoint = try RedisEndpoint(url: url, environment: [:])
            connection = try RedisConnection(endpoint: endpoint, timeout: .seconds(5))
        } catch {
            throw CacheError.unreachable(endpoint: url, reason: "\(error)")
        }
    }

    /// Runs one command of text and byte arguments; returns an integer reply, the length of
    /// a bulk reply, or the elements of an array reply (else 0).
    @discardableResult
    package func command(_ arguments: [RedisRawArgument]) throws -> Int {
        let reply = try connection.command(arguments.map(\.argument))
        return Self.size(reply)
    }

    /// Sends `commands` in one round trip (a pipeline); throws if any answered an error.
    package func pipeline(_ commands: [[RedisRawArgument]]) throws {
        for reply in try connection.pipeline(commands.map { $0.map(\.argument) }) {
            if case .error(let message) = reply {
                throw CacheError.serverError(endpoint: "\(connection.endpoint)", message: message)
            }
        }
    }

    /// `SCAN`s the keys matching `pattern` (a glob) and `UNLINK`s them in batches; returns how many.
    package func unlinkMatching(_ pattern: String, batch: Int = 1000) throws -> Int {
        var removed = 0
        try connection.scanAll(matching: pattern, count: batch) { keys in
            removed += Int(try connection.command(["UNLINK"] + keys.map { RedisArgument($0) }).integer ?? 0)
        }
        return removed
    }

    private static func size(_ reply: RedisReply) -> Int {
        switch reply {
        case .integer(let value): Int(value)
        case .bulk(let data): data.count
        case .array(let elements): elements.count
        default: 0
        }
    }
}

/// A text or byte argument of ``RedisRawClient/command(_:)``.
package struct RedisRawArgument: ExpressibleByStringLiteral {
    let argument: RedisArgument

    package init(_ text: String) { argument = RedisArgument(text) }
    package init(_ data: Data) { argument = RedisArgument(data) }
    package init(stringLiteral text: String) { self.init(text) }
}
