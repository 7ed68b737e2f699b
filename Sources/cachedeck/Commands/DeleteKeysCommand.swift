import ArgumentParser
import CacheConsole
import CacheCore
import CacheCoreRedis

/// `cachedeck del URL (--key K… | --prefix P)`: deletes keys of a Redis keyspace (never a
/// RedisStore's), with the preview, confirmation, progress and undo of every action.
struct DeleteKeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "del",
        abstract: "Delete keys of a Redis keyspace (a key, keys, or every key under a prefix); undoable.",
        discussion: """
            The preview counts the keys and their memory (MEMORY USAGE) as they are now, and the deletion \
            removes exactly those that still exist. Each key is kept for 7 days (DUMP with its expiry, in \
            its own slot on a cluster) under <redis-prefix>keytrash:, so `cachedeck restore URL ID` brings \
            back every key nothing wrote since; `cachedeck audit URL` lists the deletions. Keys are typed \
            as the keyspace browser shows them (\\xff for a byte that is not UTF-8). Where a RedisStore \
            wrote, its keys (under <redis-prefix>) are refused: use clear, invalidate or ttl, which keep \
            its namespaces right; the database's other keys are deleted as anywhere.
            """)

    @Argument(help: "The Redis URL: redis://[user:password@]host:port/db or redis+cluster://host:port,…/.")
    var url: String
    @Option(name: .shortAndLong, parsing: .singleValue, help: "A key; repeat for several.") var key: [String] = []
    @Option(help: "Keys one per line from this file (- for standard input), for lists too long for --key.")
    var keysFrom: String?
    @Option(name: .shortAndLong, help: "Every key starting with this text.") var prefix: String?
    @OptionGroup var redis: RedisPrefixArguments
    @OptionGroup var confirmation: ConfirmationArguments
    @OptionGroup var output: OutputArguments

    func validate() throws {
        if (key.isEmpty && keysFrom == nil) == (prefix == nil) {
            throw ValidationError("give --key (repeatable) or --keys-from, or --prefix, not both")
        }
        if prefix == "" { throw ValidationError("--prefix must not be empty (it would delete every key)") }
        if !RedisKeyspace.isURL(url) { throw ValidationError("del deletes Redis keys: give a redis:// URL") }
    }

    func run() throws {
        let store = try ActionStoreArguments.parse([url, "--redis-prefix", redis.redisPrefix])
        let opened = try store.openKeyspace(writable: true) ?? store.open(writable: true)
        let namespace = RedisKeyspaceAdmin.namespace
        let keys = try key + (keysFrom.map(KeyList.read) ?? [])
        let selector: InvalidationSelector =
            if let prefix { .prefix(namespace: namespace, prefix: prefix) } else if keys.count == 1 {
                .key(namespace: namespace, key: keys[0])
            } else { .keys(namespace: namespace, keys: keys) }
        try ActionRunner(store: store, opened: opened, confirmation: confirmation, json: output.json)
            .run(.deleteKeys(selector))
    }
}
