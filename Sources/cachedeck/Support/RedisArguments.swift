import ArgumentParser
import CacheCore
import CacheCoreRedis
import Foundation

/// The Redis database a keyspace command reads: `redis://[user:password@]host:port/db`.
struct RedisArguments: ParsableArguments {
    @Argument(help: "The Redis URL: redis://[user:password@]host:port/db (the password may come from REDISCLI_AUTH).")
    var url: String

    /// Connects and logs in (a bad URL, a refused connection or a wrong password fails here
    /// with one line).
    func open(separator: String = ":") throws -> RedisKeyspace {
        try RedisKeyspace(url: url, separator: separator)
    }

    /// The one line for a Redis URL given where only a cache file goes.
    static func fileOnly(_ text: String) -> Failure {
        let kind = text.lowercased().hasPrefix("redis") ? "Redis URL" : "URL"
        return Failure(
            "\(RedisEndpoint.redacted(text)) is a \(kind); this command reads cache files only (for Redis: cachedeck keys, key, "
                + "info, del, namespaces, ls, show, timeline, stats, clear, invalidate, ttl, expire, restore, audit, or "
                + "cachedeck URL for the console)")
    }
}

/// `--redis-prefix`: the key prefix of the RedisStore a command given a `redis://` URL reads.
struct RedisPrefixArguments: ParsableArguments {
    /// The prefix a RedisStore writes under unless told otherwise.
    static let defaultPrefix = RedisStoreOptions(environment: [:]).prefix

    @Option(help: "With a redis:// URL: the RedisStore's key prefix.")
    var redisPrefix = defaultPrefix

    /// The inspector of the RedisStore at `location` when it is a `redis://` URL (`nil` for a file).
    func inspector(for location: String) throws -> RedisStoreInspector? {
        guard RedisKeyspace.isURL(location) else { return nil }
        return try RedisStoreInspector(url: location, prefix: redisPrefix)
    }
}
