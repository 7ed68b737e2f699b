import ArgumentParser
import CacheConsole
import TerminalUI
import CacheCore
import CacheCoreRedis
import ForeignCaches
import Foundation

/// `cachedeck [FILE] [--read-only] [--theme NAME] [--refresh SECONDS]`: the full-screen
/// console, and the command run when no other is named. Given a `redis://` URL it browses
/// that Redis keyspace read-only.
struct ConsoleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Browse, watch and purge a cache file in a full-screen console (the default command).",
        discussion: """
            Without FILE it opens the only cache file in the user cache folder, or lists them. Keys: ? shows \
            them all (rebind them in ~/.config/cachedeck/keys.toml); : opens the command line; q quits. \
            Given redis://[user:password@]host:port/db instead of FILE it opens the same screens on the RedisStore \
            written under --redis-prefix (counts by bounded SCAN batches; actions, undo and the audit log through its admin; \
            --read-only sends no write command; :keyspace browses the raw keys), or, \
            when the database holds no store, browses its keyspace read-only as a prefix tree (Enter opens, \
            ←/Backspace go up, r rescans). \
            A cache another library wrote (python-diskcache, requests-cache, Django, Rails Solid Cache, Laravel, \
            Apple URLCache, entity_cache; see docs/foreign-caches.md) opens read-only; --write allows actions, \
            whose removed rows go to a CacheDeck trash file beside it for undo.
            """)

    @Argument(help: "The cache file (.sqlite), or a redis:// URL to browse.", completion: .file())
    var file: String?

    @Option(help: "The separator Redis key names split on (redis:// URLs only).")
    var separator = ":"

    @OptionGroup var redis: RedisPrefixArguments

    /// `--prefix`, the console's older name of `--redis-prefix` (hidden).
    @Option(name: .customLong("prefix"), help: .hidden)
    var olderPrefix: String?

    /// The RedisStore's key prefix, under either name.
    private var prefix: String { olderPrefix ?? redis.redisPrefix }

    @Flag(help: "Open the file (or Redis store) read-only: every action is disabled.")
    var readOnly = false

    @Flag(help: "Open a file (or -wal) that users other than its owner may write.")
    var allowWritable = false

    @Flag(help: "Allow actions on a cache another library wrote (python-diskcache, Solid Cache, …): read-only otherwise.")
    var write = false

    @Option(help: "The colour theme: default, light, high-contrast, monochrome, colorblind, or a user theme.")
    var theme = "default"

    @Option(help: "Seconds between refreshes, 0.25 to 60.")
    var refresh = 1.0

    func validate() throws {
        if !(0.25...60).contains(refresh) { throw ValidationError("--refresh must be between 0.25 and 60 seconds") }
        if separator.isEmpty { throw ValidationError("--separator must not be empty") }
        if olderPrefix != nil && redis.redisPrefix != RedisPrefixArguments.defaultPrefix {
            throw ValidationError("give --redis-prefix once (--prefix is its older name)")
        }
    }

    func run() throws {
        let (theme, notice) = try ConsoleLauncher.theme(named: theme)
        if let file, RedisKeyspace.isURL(file) {
            // Connects before the terminal is touched, so a bad URL or login fails with one line.
            let isStore = try RedisStoreDataSource.holdsStore(url: file, prefix: prefix)
            let source: any ConsoleDataSource =
                isStore
                ? try RedisStoreDataSource(url: file, prefix: prefix, separator: separator, readOnly: readOnly)
                : try KeyspaceDataSource(url: file, separator: separator, storePrefix: prefix, deletesKeys: !readOnly)
            return try ConsoleLauncher(theme: theme, refresh: .milliseconds(Int64(refresh * 1000)))
                .run(on: source, notices: [notice].compactMap { $0 })
        }
        let path = try file ?? Self.defaultFile()
        let (source, fileNotice) = try Self.open(
            path, readOnly: readOnly, allowWritable: allowWritable, foreignActions: write && !readOnly)
        try ConsoleLauncher(theme: theme, refresh: .milliseconds(Int64(refresh * 1000)))
            .run(on: source, notices: [fileNotice, notice].compactMap { $0 })
    }

    /// Opens the file before the terminal is touched, so a bad file fails with one line. A
    /// file this user cannot write opens read-only, and the console says so; a cache another
    /// library wrote (docs/foreign-caches.md) opens read-only.
    static func open(_ path: String, readOnly: Bool, allowWritable: Bool = false, foreignActions: Bool = false) throws
        -> (any ConsoleDataSource, notice: String?)
    {
        if let foreign = try? ForeignCache.recognise(path: path) {
            let notice =
                foreignActions
                ? "\(foreign.kind.rawValue) file: removed entries go to \(foreign.trashPath) for undo"
                : "\(foreign.kind.rawValue) file, read-only (--write allows actions)"
            return (ForeignDataSource(cache: foreign, allowsActions: foreignActions), notice)
        }
        do {
            return (try StoreDataSource.open(path: path, readOnly: readOnly, allowWritable: allowWritable), nil)
        } catch let error as CacheError where !readOnly && error == .readOnly(path: path) {
            let source = try StoreDataSource.open(path: path, readOnly: true, allowWritable: allowWritable)
            return (source, "Read-only: you cannot write \(path), so actions are disabled.")
        }
    }

    /// The only cache file in the user cache folder; otherwise a usage error listing them.
    static func defaultFile() throws -> String {
        let folder = (CacheStore.defaultPath(named: "demo") as NSString).deletingLastPathComponent
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".sqlite") }.sorted()
        switch files.count {
        case 0:
            throw ValidationError(
                "no cache files in \(folder); give a FILE, or try the demo: cachedeck demo --console")
        case 1:
            return (folder as NSString).appendingPathComponent(files[0])
        default:
            throw ValidationError(
                "several cache files in \(folder): \(files.joined(separator: ", ")); give one as FILE, "
                    + "e.g. cachedeck \((folder as NSString).appendingPathComponent(files[0]))")
        }
    }
}
