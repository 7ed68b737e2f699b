import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// The store an action command acts on: a cache file, or a RedisStore at a `redis://` (or
/// `redis+cluster://`) URL, with `--redis-prefix` when its prefix is not the default.
struct ActionStoreArguments: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "The cache file (.sqlite), or a RedisStore's URL: redis://[user:password@]host:port/db, or "
                + "redis+cluster://host:port[,host:port…]/ for a Redis Cluster."),
        completion: .file())
    var file: String

    @Flag(help: "Open a file (or -wal) that users other than its owner may write.")
    var allowWritable = false

    @OptionGroup var redis: RedisPrefixArguments

    /// The RedisStore's key prefix (with a `redis://` URL).
    var redisPrefix: String { redis.redisPrefix }

    /// Whether the store is a Redis server.
    var isRedis: Bool { RedisKeyspace.isURL(file) }

    /// The controller for the store, opened to act on it (`writable`) or to read its audit log;
    /// where no RedisStore wrote, the keyspace's key deletions (see `openKeyspace(writable:)`).
    func controller(writable: Bool) throws -> ActionController {
        try (openKeyspace(writable: writable) ?? open(writable: writable)).controller
    }

    /// The controller for the store, the cache file when it is one, and how `--filter` finds
    /// the entries it selects there.
    func open(writable: Bool) throws -> (controller: ActionController, file: CacheStore?, filters: FilterSelector) {
        guard isRedis else {
            let file =
                writable
                ? try StoreArguments.openForActions(file, allowWritable: allowWritable)
                : try StoreArguments.openForReading(file, allowWritable: allowWritable)
            return (ActionController(store: file), file, .file(file))
        }
        var options = StoreOptions(readOnly: !writable)
        options.statistics = .disabled
        let store = try RedisStore(url: file, options: options, redis: RedisStoreOptions(prefix: redisPrefix))
        return (ActionController(store: store), nil, .redis(url: file, prefix: redisPrefix))
    }

    /// Where no RedisStore wrote under the prefix, the keyspace's key deletions (`del`), their
    /// log and undo; `nil` for a file or a database that holds a store.
    func openKeyspace(writable: Bool) throws -> (controller: ActionController, file: CacheStore?, filters: FilterSelector)?
    {
        guard isRedis else { return nil }
        let inspector = try RedisStoreInspector(url: file, prefix: redisPrefix)
        guard try !inspector.holdsStore() else { return nil }
        let keyspace = try RedisKeyspace(url: file)
        let controller = ActionController(
            admin: try keyspace.admin(prefix: redisPrefix), isReadOnly: !writable, location: keyspace.redactedURL)
        return (controller, nil, .redis(inspector))
    }

    /// How later commands name this store: the path, or the URL without its password (and
    /// the prefix option when it is not the default).
    var commandLineName: String {
        guard isRedis else { return file }
        let isDefault = redisPrefix == RedisPrefixArguments.defaultPrefix
        return RedisEndpoint.redacted(file) + (isDefault ? "" : " --redis-prefix \(redisPrefix)")
    }
}
