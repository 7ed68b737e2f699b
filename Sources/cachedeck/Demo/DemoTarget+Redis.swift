import CacheConsole
import TerminalUI
import CacheCore
import CacheCoreRedis

extension DemoTarget {
    /// The demo in a RedisStore at `url` under the default prefix. A prefix that holds other
    /// namespaces is refused unless `rebuild`; `rebuild` clears the demo's namespaces only
    /// (through the store: a new generation each, never `FLUSHDB`).
    static func redis(url: String, rebuild: Bool, report: (String) -> Void) throws -> DemoTarget {
        let prefix = RedisStoreOptions.defaultPrefix
        let inspector = try RedisStoreInspector(url: url, prefix: prefix)
        let demo = Set(DemoBuilder.namespaces)
        let found = Set(try inspector.namespaces().map(\.name))
        let others = found.subtracting(demo).sorted()
        if !others.isEmpty && !rebuild {
            let named = others.prefix(3).joined(separator: ", ") + (others.count > 3 ? ", …" : "")
            throw Failure(
                "\(inspector.redactedURL) already holds a cache under \(prefix) that is not the demo "
                    + "(namespaces \(named)); use an empty database, or --rebuild to clear only the demo's namespaces")
        }
        let store = try RedisStore(url: url, options: StoreOptions(invalidationRules: DemoBuilder.rules))
        if rebuild {
            let cleared = demo.intersection(found).sorted()
            let removed = try store.invalidate(cleared.map { InvalidationSelector.namespace($0) }).totalRemoved
            if !cleared.isEmpty {
                let namespaces = cleared.count == 1 ? "1 namespace" : "\(cleared.count) namespaces"
                let entries = Formatting.entries(removed)
                report("cleared the demo's \(namespaces) (\(entries)); others under \(prefix) are kept")
            }
        }
        return DemoTarget(
            store: store, location: inspector.redactedURL, policies: .redis, isBuilt: !rebuild && found == demo,
            openConsole: { try RedisStoreDataSource(url: url, prefix: prefix) })
    }
}
