import CacheConsole
import TerminalUI
import CacheCore
import CacheCoreRedis
import Foundation

/// Where the demo goes, opened: a cache file or a RedisStore, and how the console opens it.
struct DemoTarget {
    /// The store the builder and the simulated app write.
    let store: any CacheStoring
    /// The file's path or the URL without its password, as printed.
    let location: String
    /// Where the two stores differ (mailboxes).
    let policies: DemoPolicies
    /// Whether the store already holds the demo.
    let isBuilt: Bool
    /// Opens the console's view of the store (a connection or file handle of its own).
    let openConsole: @Sendable () throws -> any ConsoleDataSource

    /// The demo cache file at `path` (its folder made private); `rebuild` deletes it first.
    static func file(path: String, rebuild: Bool) throws -> DemoTarget {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        if rebuild { try remove(path) }
        let isBuilt = FileManager.default.fileExists(atPath: path)
        var options = StoreOptions(invalidationRules: DemoBuilder.rules)
        options.onDamagedFile = .fail
        let store = try CacheStore(path: path, options: options)
        return DemoTarget(
            store: store, location: path, policies: .file, isBuilt: isBuilt,
            openConsole: { try StoreDataSource.open(path: path, readOnly: false) })
    }

    private static func remove(_ path: String) throws {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}
