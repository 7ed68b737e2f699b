import Foundation

/// What a ``Cache`` handle needs from the store behind it: a SQLite file (``CacheStore``) or a
/// Redis server (`RedisStore`). Everything else a handle does (the memory tier, loaders,
/// single flight, stale-if-error, back-off, statistics) is the handle's own code, shared by
/// both stores.
///
/// The handle keeps the clock itself, so a memory hit makes no call through this protocol.
package protocol CacheBackend: AnyObject, Sendable {
    /// The store's options (clock, logger, load back-off, default policies).
    var options: StoreOptions { get }

    /// The entry `key` of the runtime's namespace, following the namespace when another
    /// process cleared it since this one resolved it; `nil` when there is none.
    func lookup(_ key: String, in runtime: NamespaceRuntime) throws -> StoredEntry?

    /// Notes a read of `entry` (hit counts, lazy deletion); never a write on the read path.
    func recordRead(_ entry: StoredEntry, now: Int64)

    /// Stores `rows` in the runtime's namespace; `committed` runs once they are durable, so
    /// memory copies are updated in the order the store saw the writes.
    func write(_ rows: [EntryWrite], in runtime: NamespaceRuntime, committed: () -> Void) throws

    /// Removes what `selectors` select (and what dependency rules add), counting what each
    /// named namespace lost as `counter`.
    func invalidate(_ selectors: [InvalidationSelector], countedAs counter: RemovalCounter) throws
        -> InvalidationResult

    /// The number of live entries at `now` of `namespace` (as a handle opened it, with its
    /// version) in the store.
    func liveCount(of namespace: NamespaceRecord, runtime: NamespaceRuntime, now: Int64) throws -> Int

    /// How many reads `key`'s stored entry (of the handle's version) has served, or `nil`
    /// when there is none.
    func hitCount(of key: String, in namespace: NamespaceRecord) throws -> Int?

    /// The counters of `namespace`, shared by every handle on it.
    func counters(for namespace: NamespaceRecord) -> NamespaceCounters

    /// Counts and logs a stored value that no longer decodes (the read is a miss).
    func noteDecodeFailure(namespace: String, key: String, error: any Error)
}

/// Which statistics counter an invalidation's removals go to.
package enum RemovalCounter {
    case invalidations, removes
}

extension CacheBackend {
    /// Logs a failure a caller cannot see (a subscript read or write).
    func logFailure(_ message: String, namespace: String, error: any Error) {
        options.logger.warning("\(message)", metadata: ["namespace": "\(namespace)", "error": "\(error)"])
    }
}

extension CompiledInvalidationRules {
    /// Expands `selectors` with the dependency rules and removes each with `remove` (which
    /// returns how many entries it removed), counting what each named namespace lost as
    /// `counter` (what a rule adds is always an invalidation). Both stores invalidate this way.
    package func apply(
        _ selectors: [InvalidationSelector], countedAs counter: RemovalCounter, in statistics: StatisticsRegistry,
        by remove: (InvalidationSelector) throws -> Int
    ) throws -> InvalidationResult {
        let removals = try expand(selectors.map(\.normalized)).map { selector, cause in
            let removal = InvalidationResult.Removal(selector: selector, removed: try remove(selector), cause: cause)
            if let name = selector.namespace {
                let counters = statistics.counters(for: NamespaceRecord(id: nil, name: name, policy: .default))
                if counter == .removes && cause == nil {
                    _ = counters.removed(count: removal.removed)
                } else {
                    counters.invalidated(count: removal.removed)
                }
            }
            return removal
        }
        return InvalidationResult(removals: removals)
    }
}
